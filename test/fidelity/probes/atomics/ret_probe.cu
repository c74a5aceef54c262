// which returning atomics nvcc warp-aggregates (issue #40, filter_arr): o[t]=atomicXxx(address, value)
#define K(n,T,e) extern "C" __global__ void n(T*p,T*o,int*q){int t=threadIdx.x;e;}
K(add_v,int,o[t]=atomicAdd(p,t))                 // per-lane value, parameter address
K(add_1,int,o[t]=atomicAdd(p,1))                 // the same value in every lane
K(addu_v,unsigned,o[t]=atomicAdd(p,(unsigned)t))
K(addf_v,float,o[t]=atomicAdd(p,(float)t))
K(add64_v,unsigned long long,o[t]=atomicAdd(p,(unsigned long long)t))
K(sub_v,int,o[t]=atomicSub(p,t))
K(or_v,int,o[t]=atomicOr(p,t))
K(max_v,int,o[t]=atomicMax(p,t))
K(inc_c,unsigned,o[t]=atomicInc(p,1000u))
K(exch_v,int,o[t]=atomicExch(p,t))
K(add_blk,int,o[t]=atomicAdd(p+blockIdx.x,t))    // uniform through blockIdx
K(add_ld,int,o[t]=atomicAdd(p+q[0],t))           // uniform at run time only (a loaded index)
K(add_h,int,o[t]=atomicAdd(p+(t>>30),t))         // always p, not provably uniform
K(add_if,int,int r=0;if(q[t]>0)r=atomicAdd(p,t);o[t]=r)  // under a branch
K(add_2,int,int a=atomicAdd(p,t);int b=atomicAdd(p+1,t);o[t]=a+b)  // two in a block
K(add_loop,int,int r=0;for(int i=0;i<q[0];i++)r+=atomicAdd(p,t+i);o[t]=r)
K(add_1loop,int,int r=0;for(int i=0;i<16;i++)r+=atomicAdd(p,1);o[t]=r) // atomic_contention's same_address
K(add_sh,int,__shared__ int s;if(t==0)s=0;__syncthreads();o[t]=atomicAdd(&s,t))
K(add_blkscope,int,o[t]=atomicAdd_block(p,t))
K(add_sys,int,o[t]=atomicAdd_system(p,t))
K(red_if,int,if(q[t]>0)atomicAdd(p,t))           // a RED under a branch
