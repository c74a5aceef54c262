// cudaparts probe: local arrays (STL/LDL), shared atomics, generic LD/ST. One block of 32 threads each.
#include <cstdio>
__global__ void loc(int*o,int k){int a[16];
 for(int i=0;i<16;i++)a[(i+k)&15]=o[i];
 o[threadIdx.x+16]=a[threadIdx.x&15];}
__global__ void locd(double*o,int k){double a[8];
 for(int i=0;i<8;i++)a[(i+k)&7]=o[i];
 o[threadIdx.x+8]=a[k&7];}
__global__ void satom(int*o,int s){__shared__ int h[1024];
 for(int i=threadIdx.x;i<1024;i+=32)h[i]=0;__syncthreads();
 atomicAdd(&h[(threadIdx.x*s)&1023],1);__syncthreads();
 o[threadIdx.x]=h[threadIdx.x];}
__global__ void gen(int*g,int sel){__shared__ int s[64];
 s[threadIdx.x]=threadIdx.x;__syncthreads();
 int*p=sel?s:g;p[threadIdx.x]=p[threadIdx.x]+1;__syncthreads();
 g[threadIdx.x+32]=s[threadIdx.x];}
int main(){int*g;cudaMalloc(&g,1<<16);cudaMemset(g,0,1<<16);
 loc<<<1,32>>>(g,3);locd<<<1,32>>>((double*)g,3);
 satom<<<1,32>>>(g,1);satom<<<1,32>>>(g,0);satom<<<1,32>>>(g,32);satom<<<1,32>>>(g,2);
 gen<<<1,32>>>(g,0);gen<<<1,32>>>(g,1);
 printf("%d\n",(int)cudaDeviceSynchronize());}
