// returning atomicAdd of a warp-uniform value to a warp-uniform address (issue #40): which value shapes
#define K(n,T,e) extern "C" __global__ void n(T*p,T*o,int*q,int v){int t=threadIdx.x;e;}
K(add_5,int,o[t]=atomicAdd(p,5))                          // a constant other than 1
K(add_n,int,o[t]=atomicAdd(p,v))                          // a parameter
K(add_bx,int,o[t]=atomicAdd(p,(int)blockIdx.x))           // uniform, not constant
K(sub_1,int,o[t]=atomicSub(p,1))
K(add_1x2,int,int a=atomicAdd(p,1);int b=atomicAdd(p+1,1);o[t]=a+b)  // two in one block
K(add_1if,int,int r=0;if(q[t]>0)r=atomicAdd(p,1);o[t]=r)  // under a branch
K(add_1red,int,atomicAdd(p+2,t);o[t]=atomicAdd(p,1))      // after a RED in the same block
K(add_lead,int,int r=0;for(int i=0;i<16;i++)if((t&31)==0)r+=atomicAdd(p,1);o[t]=r) // one lane per warp
K(add_1sh,int,__shared__ int s;if(t==0)s=0;__syncthreads();o[t]=atomicAdd(&s,1))
K(add_vloop,int,int r=0;for(int i=0;i<v;i++)r+=atomicAdd(p,1);o[t]=r)  // a runtime loop
