/* json_fast.h — a quick parser for the common subset of JSON that builds the jansson tree
 * json_loadb(text, size, JSON_REJECT_DUPLICATES) would, or gives up (NULL) on anything outside
 * that subset or invalid, leaving the text to jansson (json_fast.c says why and what). */
#ifndef KILN_CORE_JSON_FAST_H
#define KILN_CORE_JSON_FAST_H

#include <jansson.h>
#include <stddef.h>

json_t *kiln_json_fast_parse(const char *text, size_t size);

#endif
