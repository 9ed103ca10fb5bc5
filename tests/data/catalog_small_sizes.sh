# The catalog apps at sizes where one benchmark run takes seconds on PoCL (the default sizes take
# minutes per candidate there), as `-p` flags per app. Sourced (never run) by
# tests/e2e/bench_catalog.sh, benchmarks/reliability_sweep.sh and benchmarks/fig7.sh.
# shellcheck disable=SC2034 # used by the scripts that source it
declare -A catalog_small_sizes=(
    [bilateral_grid]="-p width=128 -p height=96"
    [local_laplacian]="-p width=128 -p height=96 -p levels=3 -p intensity_levels=4"
    [nl_means]="-p width=64 -p height=48 -p patch_size=3 -p search_area=3"
    [lens_blur]="-p width=64 -p height=48 -p slices=4 -p aperture_samples=4 -p max_blur_radius=2"
    [camera_pipe]="-p width=128 -p height=96"
    [stencil_chain]="-p length=4 -p width=128 -p height=96"
    [harris]="-p width=128 -p height=96"
    [histogram_equalize]="-p width=128 -p height=96"
    [max_filter]="-p width=128 -p height=96 -p radius=3"
    [unsharp_mask]="-p width=128 -p height=96"
    [interpolate]="-p width=128 -p height=96 -p levels=3"
    [conv_layer]="-p batch=1 -p in_channels=8 -p out_channels=8 -p width=16 -p height=12"
    [matmul]="-p m=64 -p n=64 -p k=64"
    [iir_blur]="-p width=128 -p height=96 -p channels=3"
    [bgu]="-p width=128 -p height=96 -p low_width=32 -p low_height=24 -p s_sigma=4"
    [depthwise_separable_conv]="-p batch=1 -p in_channels=8 -p out_channels=8 -p width=16 -p height=12"
)
