# libkiln_rt's krt_mount_cache given a project folder (or kiln's output folder) instead of the
# cache in it says which folder to mount (E_USAGE), instead of mounting 0 artifacts; the cache
# itself mounts. Run through kiln-rt-example; skipped when it was not built.
need_rt_example
mkpng assets/a.png 8 8 1
k 0 import --all
rt 2 "$W" 'a.png#texture'
show_err
rt 2 "$W/.kiln" 'a.png#texture'
show_err
rt 2 "$W/assets" 'a.png#texture'
show_err
rt 0 "$W/.kiln/cache" 'a.png#texture'
show
