#!/bin/sh
# Writes the models of rohinarora/CUDA's kernels on a Tesla K20m (rohinarora/CUDA@13c8549b, no
# licence file: its sources read there, not copied; the times are its READMEs' and outputs',
# cited in kernels.csv), one file per point, into models-k20m/ beside this script (or under
# OUT_DIR), and prints their points.csv rows (kind `published`, held out) on stdout; ../models.sh
# checks that both match what is committed and that kernels.csv gives each row's time:
#
#   sh tests/validation/published/rohin-models.sh [OUT_DIR] > /tmp/rows.csv
#
# The kernels: a 1-D sum over 2 RADIUS + 1 neighbours of 100M elements in blocks of 512, naive
# (each tap a bounds-checked load from global memory) and through a shared tile with its halo,
# in doubles at RADIUS 0 to 32 and in floats at 8, and a vector add of 100M doubles as records
# of three and as three arrays. The models and rows were written, and committed (9fcf40f),
# before any estimate was run; docs/validation.md gives the comparison.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$here}
mkdir -p "$root/models-k20m"
SRC='rohinarora/CUDA@13c8549ba581 3. Convolution with shared memory'
LICENCE='No licence file: no code is copied; this model is written from reading it.'

# point ID US KERNEL: the points.csv row of model ID, measured US µs.
point() {
    printf '%s,published,tesla-k20m,tests/validation/published/models-k20m/%s.xml,%s,%s\n' \
        "$1" "$1" "$2" "tests/validation/published/kernels.csv (tesla-k20m $3; rohinarora/CUDA@13c8549b)"
}

# naive ID TYPE RADIUS FILE REGISTERS: convBaseline, RADIUS a #define, or a kernel argument
# where FILE is convBaselineVaryKernel; REGISTERS as nvprof printed them, or empty.
naive() {
    id=$1 type=$2 r=$3 file=$4 regs=$5
    if [ "$file" = convBaselineVaryKernel ]; then
        how='a kernel argument'
        rparam="<param name=\"R\" value=\"$r\" runtime=\"yes\" note=\"RADIUS, a kernel argument in this file\"/>"
    else
        how='a #define'
        rparam="<param name=\"R\" value=\"$r\" note=\"#define RADIUS $r\"/>"
    fi
    summary="1-D $((2 * r + 1))-point sum (an identity filter) of 100M ${type}s, each tap a bounds-checked load from global memory"
    [ "$type" = float ] && summary="$summary, added in double"
    {
        cat <<XML
<?xml version="1.0" encoding="UTF-8"?>
<kernel id="$id" name="convBaseline">
  <summary>$summary</summary>
  <source language="text">$SRC/$file.cu (nvcc -O3 -arch=sm_35): convBaseline($type *in, $type *out, int n), RADIUS $how, blocks of 512: if (g &lt; n) { $type result = 0.0; for offset from -RADIUS to RADIUS, result += (g + offset inside [0, n)) ? in[g + offset] : 0.0; out[g] = result; }, n = 100,000,000. $LICENCE</source>
  <launch grid="(N - 1) / 512 + 1" block="512"/>
  <param name="N" value="100000000" runtime="yes"/>
  $rparam
  <array name="in" type="$type" length="N" read-only-path="no"/>
  <array name="out" type="$type" length="N"/>
XML
        [ -z "$regs" ] || echo "  <resources registers=\"$regs\"/>"
        cat <<'XML'
  <work>
    <let name="g" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <when test="g &lt; N">
      <loop var="off" from="0 - R" to="R + 1">
        <when test="g + off &gt;= 0 and g + off &lt; N">
          <load array="in" index="g + off"/>
XML
        # In floats the ternary's 0.0 is a double: each tap is a double add between conversions.
        [ "$type" = double ] || echo '          <instructions pipe="conversion64" count="1" note="the loaded float widened to double: the ternary'"'"'s other arm is the double 0.0"/>'
        cat <<'XML'
        </when>
        <flops count="1" precision="fp64" fused="false"/>
XML
        [ "$type" = double ] || echo '        <instructions pipe="conversion64" count="2" note="result widened to double and the sum narrowed back to float (nvcc 13.0 -O3 PTX of the file: 50 cvt and 17 add.f64 for the 17 taps)"/>'
        cat <<'XML'
      </loop>
      <store array="out" index="g"/>
    </when>
  </work>
</kernel>
XML
    } >"$root/models-k20m/$id.xml"
}

# shared ID TYPE RADIUS FILE REGISTERS: convShared, RADIUS a #define (set to RADIUS in
# convSharedVaryKernel, whose committed file has 8).
shared() {
    id=$1 type=$2 r=$3 file=$4 regs=$5
    size=8 precision=fp64
    [ "$type" = double ] || { size=4; precision=fp32; }
    registers=
    [ -z "$regs" ] || registers=" registers=\"$regs\""
    set_to=
    [ "$file" != convSharedVaryKernel ] ||
        set_to=" The file at this commit has RADIUS 8 and its program takes only the vector size, so the row was run with the define set to $r, as modelled here."
    cat >"$root/models-k20m/$id.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<kernel id="$id" name="convShared">
  <summary>1-D $((2 * r + 1))-point sum (an identity filter) of 100M ${type}s, the block's input and its halo staged in shared memory</summary>
  <source language="text">$SRC/$file.cu (nvcc -O3 -arch=sm_35; 8-byte banks set): convShared($type *in, $type *out, int n), RADIUS $r, blocks of 512: __shared__ temp[512 + 2 RADIUS]; each thread copies in[g] to temp[threadIdx.x + RADIUS], threads below RADIUS also the halo on either side (0.0 beyond the ends); __syncthreads(); out[g] = the sum of temp over the thread's 2 RADIUS + 1 neighbours; n = 100,000,000.$set_to $LICENCE</source>
  <launch grid="(N - 1) / 512 + 1" block="512"/>
  <param name="N" value="100000000" runtime="yes"/>
  <param name="R" value="$r" note="#define RADIUS $r"/>
  <array name="in" type="$type" length="N" read-only-path="no"/>
  <array name="out" type="$type" length="N"/>
  <array name="temp" type="$type" length="512 + 2 * R" space="shared"/>
  <resources$registers shared-bytes="(512 + 2 * R) * $size"/>
  <work>
    <let name="g" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <let name="l" value="threadIdx.x + R"/>
    <when test="g &lt; N">
      <load array="in" index="g"/>
      <store array="temp" index="l"/>
      <when test="threadIdx.x &lt; R">
        <when test="g - R &gt;= 0">
          <load array="in" index="g - R"/>
        </when>
        <store array="temp" index="l - R"/>
        <when test="g + 512 &lt; N">
          <load array="in" index="g + 512"/>
        </when>
        <store array="temp" index="l + 512"/>
      </when>
    </when>
    <when test="g &gt;= N">
      <store array="temp" index="l"/>
    </when>
    <barrier/>
    <when test="g &lt; N">
      <loop var="off" from="0 - R" to="R + 1">
        <load array="temp" index="l + off"/>
        <flops count="1" precision="$precision" fused="false"/>
      </loop>
      <store array="out" index="g"/>
    </when>
  </work>
  <note>The __syncthreads() is modelled as &lt;barrier/&gt;.</note>
</kernel>
XML
}

# At RADIUS 8 nvprof timed the naive and shared kernels in doubles and printed their registers.
naive k20m-conv-naive-double double 8 convBaseline 30
point k20m-conv-naive-double 50643 convBaseline
shared k20m-conv-shared-double double 8 convShared 16
point k20m-conv-shared-double 14330 convShared
naive k20m-conv-naive-float float 8 convBaselineFloat ''
point k20m-conv-naive-float 28780 convBaseline
shared k20m-conv-shared-float float 8 convSharedFloat ''
point k20m-conv-shared-float 13160 convShared
# The README's radius table, RADIUS:NAIVE_US:SHARED_US (its RADIUS 8 row repeats the above).
for row in 0:11170:11270 1:14230:11810 2:16260:12250 4:27280:12600 16:99080:21290 \
    32:195680:32920; do
    r=${row%%:*} rest=${row#*:}
    naive "k20m-conv-naive-r$r" double "$r" convBaselineVaryKernel ''
    point "k20m-conv-naive-r$r" "${rest%%:*}" convBaseline
    shared "k20m-conv-shared-r$r" double "$r" convSharedVaryKernel ''
    point "k20m-conv-shared-r$r" "${rest#*:}" convShared
done

# The vector adds of "2. Memory Coalescing": records of three doubles (vadd.cu) and three arrays
# (vadd_coalesced.cu), CUDA events around one launch.
cat >"$root/models-k20m/k20m-vadd-aos.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<kernel id="k20m-vadd-aos" name="add">
  <summary>c = a + b over 100M records of three doubles (an array of structures: each thread reads 16 of its record's 24 bytes and writes the other 8)</summary>
  <source language="text">rohinarora/CUDA@13c8549ba581 2. Memory Coalescing/vadd.cu (nvcc -O3 -arch=sm_35, run as ./vadd 100000000): typedef struct { double a, b, c; } Data; add(Data *data, int vector_size): tid = blockIdx.x * blockDim.x + threadIdx.x; if (tid &lt; vector_size) data[tid].c = data[tid].a + data[tid].b; launched with (vector_size - 1) / 512 + 1 blocks of 512. No licence file in the repository: no code is copied; this model is written from reading it.</source>
  <launch grid="(N - 1) / 512 + 1" block="512"/>
  <param name="N" value="100000000" runtime="yes"/>
  <array name="data" type="double" length="3 * N" read-only-path="no" note="Data[N], three doubles a record: a at 3 tid, b at 3 tid + 1, c at 3 tid + 2"/>
  <work>
    <let name="tid" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <when test="tid &lt; N">
      <load array="data" index="3 * tid"/>
      <load array="data" index="3 * tid + 1"/>
      <flops count="1" precision="fp64" fused="false"/>
      <store array="data" index="3 * tid + 2"/>
    </when>
  </work>
</kernel>
XML
point k20m-vadd-aos 32780 add
cat >"$root/models-k20m/k20m-vadd-soa.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<kernel id="k20m-vadd-soa" name="add">
  <summary>c = a + b over three arrays of 100M doubles (a structure of arrays)</summary>
  <source language="text">rohinarora/CUDA@13c8549ba581 2. Memory Coalescing/vadd_coalesced.cu (nvcc -O3 -arch=sm_35, run as ./vadd_coalesced 100000000): typedef struct { double *a, *b, *c; } Data; add(Data data, int vector_size): tid = blockIdx.x * blockDim.x + threadIdx.x; if (tid &lt; vector_size) data.c[tid] = data.a[tid] + data.b[tid]; launched with (vector_size - 1) / 512 + 1 blocks of 512. No licence file in the repository: no code is copied; this model is written from reading it.</source>
  <launch grid="(N - 1) / 512 + 1" block="512"/>
  <param name="N" value="100000000" runtime="yes"/>
  <array name="a" type="double" length="N" read-only-path="no"/>
  <array name="b" type="double" length="N" read-only-path="no"/>
  <array name="c" type="double" length="N"/>
  <work>
    <let name="tid" value="blockIdx.x * blockDim.x + threadIdx.x"/>
    <when test="tid &lt; N">
      <load array="a" index="tid"/>
      <load array="b" index="tid"/>
      <flops count="1" precision="fp64" fused="false"/>
      <store array="c" index="tid"/>
    </when>
  </work>
</kernel>
XML
point k20m-vadd-soa 16080 add
