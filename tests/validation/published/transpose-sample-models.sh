#!/bin/sh
# Writes the models of NVIDIA's transpose sample (code-samples series/cuda-cpp/transpose:
# blocks of 32 x 8, four elements a thread, 32 x 32 tiles) as three held-out runs time it, one
# file per point, into models-970/, models-titan/ and models-k20m-transpose/ beside this script
# (or under OUT_DIR), and prints their points.csv rows (kind `published`) on stdout; ../models.sh
# checks that both match what is committed and that kernels.csv gives each row's time:
#
#   sh tests/validation/published/transpose-sample-models.sh [OUT_DIR] > /tmp/rows.csv
#
# The runs: TimDettmers/GTX970test@e1921c8b (no licence file) on a GeForce GTX 970 and a GeForce
# GTX TITAN at 20000 x 20000 floats, and gmateesc/ScientificComputing@02a96e5e (GPL-3.0) on a
# Tesla K20m at 1024 x 1024. Neither's code is copied: the models are written from reading it.
# Each set's models and rows were committed before any estimate was run (stops 60 and 62);
# docs/validation.md gives the comparison.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$here}

# The kernels, as the sample writes them (width = gridDim.x * 32).
COPY='copy(float *odata, const float *idata): x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y; for (j = 0; j &lt; 32; j += 8) odata[(y + j) * width + x] = idata[(y + j) * width + x]'
SHARED_COPY='copySharedMem(float *odata, const float *idata): __shared__ float tile[32 * 32]; x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y; for (j = 0; j &lt; 32; j += 8) tile[(threadIdx.y + j) * 32 + threadIdx.x] = idata[(y + j) * width + x]; __syncthreads(); for (j = 0; j &lt; 32; j += 8) odata[(y + j) * width + x] = tile[(threadIdx.y + j) * 32 + threadIdx.x]'
NAIVE='transposeNaive(float *odata, const float *idata): x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y; for (j = 0; j &lt; 32; j += 8) odata[x * width + (y + j)] = idata[(y + j) * width + x]'
# tiled NAME WIDTH: the two transposes through a 32 x WIDTH tile.
tiled() {
    echo "$1(float *odata, const float *idata): __shared__ float tile[32][$2]; x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y; for (j = 0; j &lt; 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x]; __syncthreads(); x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y; for (j = 0; j &lt; 32; j += 8) odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j]"
}

# The set being written: set_run FOLDER GPU PREFIX W ON SOURCE TAIL ROW, where PREFIX begins
# each model's id, ON names the GPU in the summaries, SOURCE begins each <source>, TAIL (may be
# empty) follows its launch, and ROW ends each points.csv row's source.
set_run() {
    folder=$1 gpu=$2 prefix=$3 w=$4 on=$5 source=$6 tail=$7 row=$8
    mkdir -p "$root/$folder"
}

# opening ID NAME SUMMARY TEXT: the model's opening lines, down to its global arrays.
opening() {
    cat <<XML
<?xml version="1.0" encoding="UTF-8"?>
<kernel id="$prefix-$1" name="$2">
  <summary>$3 of a $w x $w float matrix on $on, 4 elements a thread in blocks of 32 x 8</summary>
  <source language="text">$source: $4; launched with grid ($((w / 32)), $((w / 32))) and block (32, 8) on $w x $w floats, width = gridDim.x * 32$tail.</source>
  <launch grid="$((w / 32)), $((w / 32))" block="32, 8"/>
  <param name="W" value="$w" runtime="yes"/>
  <array name="idata" type="float" length="W * W" read-only-path="no"/>
  <array name="odata" type="float" length="W * W"/>
XML
}

# rows_loop: the work's opening, down to the first loop's load of a row of idata, which every
# kernel of the sample shares.
rows_loop() {
    cat <<'XML'
  <work>
    <let name="x" value="blockIdx.x * 32 + threadIdx.x"/>
    <let name="y" value="blockIdx.y * 32 + threadIdx.y"/>
    <loop var="j" from="0" to="32" step="8">
      <load array="idata" index="(y + j) * W + x"/>
XML
}

# point ID US: the points.csv row of model PREFIX-ID, measured US µs.
point() {
    printf '%s-%s,published,%s,tests/validation/published/%s/%s-%s.xml,%s,%s\n' "$prefix" "$1" \
        "$gpu" "$folder" "$prefix" "$1" "$2" \
        "tests/validation/published/kernels.csv ($gpu $prefix-$1; $row)"
}

copy() {
    {
        opening copy copy "A copy" "$COPY"
        rows_loop
        cat <<'XML'
      <store array="odata" index="(y + j) * W + x"/>
    </loop>
  </work>
</kernel>
XML
    } >"$root/$folder/$prefix-copy.xml"
    point copy "$1"
}

shared_copy() {
    {
        opening shared-copy copySharedMem "A copy through a 32 x 32 shared tile" "$SHARED_COPY"
        echo '  <array name="tile" type="float" length="32 * 32" space="shared"/>'
        rows_loop
        cat <<'XML'
      <store array="tile" index="(threadIdx.y + j) * 32 + threadIdx.x"/>
    </loop>
    <barrier/>
    <loop var="j" from="0" to="32" step="8">
      <load array="tile" index="(threadIdx.y + j) * 32 + threadIdx.x"/>
      <store array="odata" index="(y + j) * W + x"/>
    </loop>
  </work>
</kernel>
XML
    } >"$root/$folder/$prefix-shared-copy.xml"
    point shared-copy "$1"
}

naive() {
    {
        opening transpose-naive transposeNaive "A naive transpose (rows read, columns written)" "$NAIVE"
        rows_loop
        cat <<'XML'
      <store array="odata" index="x * W + (y + j)"/>
    </loop>
  </work>
</kernel>
XML
    } >"$root/$folder/$prefix-transpose-naive.xml"
    point transpose-naive "$1"
}

# transpose ID NAME SUMMARY WIDTH US: through a 32 x WIDTH tile, read down its columns.
transpose() {
    {
        opening "$1" "$2" "$3" "$(tiled "$2" "$4")"
        echo "  <array name=\"tile\" type=\"float\" length=\"32 * $4\" space=\"shared\"/>"
        rows_loop
        cat <<XML
      <store array="tile" index="(threadIdx.y + j) * $4 + threadIdx.x"/>
    </loop>
    <barrier/>
    <let name="x2" value="blockIdx.y * 32 + threadIdx.x"/>
    <let name="y2" value="blockIdx.x * 32 + threadIdx.y"/>
    <loop var="j" from="0" to="32" step="8">
      <load array="tile" index="threadIdx.x * $4 + threadIdx.y + j"/>
      <store array="odata" index="(y2 + j) * W + x2"/>
    </loop>
  </work>
</kernel>
XML
    } >"$root/$folder/$prefix-$1.xml"
    point "$1" "$5"
}

# transposes US US: the sample's two tiled transposes, with conflicts and without.
transposes() {
    transpose transpose-coalesced transposeCoalesced \
        "A transpose through a 32 x 32 shared tile read down its columns (bank conflicts)" 32 "$1"
    transpose transpose-conflict-free transposeNoBankConflicts \
        "A transpose through a 32 x 33 shared tile (no bank conflicts)" 33 "$2"
}

# TimDettmers/GTX970test: each file's first run; its copy row sets the GPU file's DRAM rate.
DETTMERS="TimDettmers/GTX970test@e1921c8b test_bandwidth2.cu, NVIDIA's transpose sample (Copyright 2012 NVIDIA, Apache-2.0 header; not copied, this model is written from reading it)"
set_run models-970 gtx-970 gtx970 20000 "the GeForce GTX 970" "$DETTMERS" "" \
    "TimDettmers/GTX970test results/test_bandwidth2_GTX_970.output"
shared_copy 24253.4
naive 67796.6
transposes 29618.7 27257.2
set_run models-titan gtx-titan gtxtitan 20000 "the GeForce GTX TITAN" "$DETTMERS" "" \
    "TimDettmers/GTX970test results/test_bandwidth2_GTX_TITAN.output"
shared_copy 14637.3
naive 64412.2
transposes 22516.2 14975.7

# gmateesc/ScientificComputing: the CUDA 5.5 run, all five kernels.
set_run models-k20m-transpose tesla-k20m k20m 1024 "a Tesla K20m" \
    "gmateesc/ScientificComputing@02a96e5e CUDA_matrix_transpose/src/matrix_1024_1024/transpose.cu, NVIDIA's transpose sample (code-samples series/cuda-cpp/transpose; the repository is GPL-3.0: not copied, this model is written from reading it)" \
    ", built by CUDA 5.5 with no -arch (sm_10 PTX, compiled for the GPU when loaded)" \
    "gmateesc/ScientificComputing@02a96e5e CUDA_matrix_transpose/README.md"
copy 61.75
shared_copy 54.95
naive 155.84
transposes 89.28 58.70
