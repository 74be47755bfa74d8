#!/usr/bin/python3
"""fault_server.py - HTTP servers that misbehave, for the remote cache tests (tests/remote).

usage: fault_server.py MODE PORT LOG
  503     answers every request with 503 Service Unavailable
  slow    answers 404, one byte per second
  die:N   answers the first N requests with 404, then exits (a server stopped mid-run)
Each request line is appended to LOG, so a test can count what kiln asked after a failure.
"""
import os
import socket
import sys
import time


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head.split(b"\r\n")[0].decode("latin-1")


def main():
    mode, port, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(64)
    served = 0
    limit = int(mode[4:]) if mode.startswith("die:") else -1
    while True:
        conn, _ = srv.accept()
        try:
            line = read_request(conn)
            if line is None:
                continue
            with open(log, "a") as f:
                f.write(line + "\n")
            if mode == "503":
                conn.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                             b"Connection: close\r\n\r\n")
            elif mode == "slow":
                for b in b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n":
                    conn.sendall(bytes([b]))
                    time.sleep(1)
            else:
                conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n"
                             b"Connection: close\r\n\r\n")
        except OSError:
            pass
        finally:
            conn.close()
        served += 1
        if served == limit:
            srv.close()
            os._exit(0)


if __name__ == "__main__":
    main()
