// alias.cu: loops that store into one array and load from another, compiled (not run) by
// alias.sh to read whether the unrolled copies' loads move above the stores before them. C lets
// no compiler move a load above a store that may write its address; the rule it supports is
// refine.c's loads_wait_for_stores (docs/architectures.md item 19).

// Plain pointers: x may be y, so x[i + 1] is loaded after y[i] is stored (y's own next loads,
// same pointer at other offsets, may come first).
__global__ void add_plain(int n, float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] + y[i];
}

// The same with both pointers __restrict__: every copy's loads may come first.
__global__ void add_restrict(int n, const float *__restrict__ x, float *__restrict__ y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] + y[i];
}

// const without __restrict__ is still a plain pointer: the loads wait.
__global__ void copy_const(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] + 1.0f;
}

// const __restrict__ on the loaded pointer alone suffices (read-only-path="yes").
__global__ void copy_const_restrict(int n, const float *__restrict__ x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] + 1.0f;
}

// __restrict__ on the stored pointer alone also suffices: nothing stored may be what x reads,
// so nvcc loads x on the read-only path (LDG.E.CONSTANT) and every copy's load first. roofcast
// import writes read-only-path="yes" for x here.
__global__ void store_restrict(int n, const float *x, float *__restrict__ y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] + 1.0f;
}

// One array, updated in place: the next copies' loads are of other offsets of the same pointer.
__global__ void scale_inplace(int n, float *a)
{
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 2.0f + 1.0f;
}
