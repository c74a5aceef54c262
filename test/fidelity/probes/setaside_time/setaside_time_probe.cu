// The set-aside's effect on time (issue #40): micro.cu's g_st_u128_coalesced (`st`, 64 MiB of 16-byte
// stores) and g_ld_u32_coalesced (`ld`, a 16 MiB copy) with 0, 8 and 10 sixteenths of the L2 set aside
// for persisting lines (no persisting access anywhere), each after a 512 MiB read stream that leaves
// the L2 clean. Run under ncu --set full with application replay and --cache-control none (the L2
// carries between kernels), profiling st and ld only: run_setaside_time.sh.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void st(int4* o){size_t i=(size_t)blockIdx.x*blockDim.x+threadIdx.x;o[i]=make_int4((int)i|1,(int)i+1,(int)i+2,(int)i+3);}
__global__ void ld(const unsigned* in,unsigned* o){size_t i=(size_t)blockIdx.x*blockDim.x+threadIdx.x;o[i]=in[i];}
__global__ void stream(const int4* b,size_t n,unsigned* s){int a=0;for(size_t i=(size_t)blockIdx.x*blockDim.x+threadIdx.x;i<n;i+=(size_t)gridDim.x*blockDim.x){a^=b[i].y;}if(a==0x12345678)s[threadIdx.x]=a;}
int main(){cudaDeviceProp p;cudaGetDeviceProperties(&p,0);int sms=p.multiProcessorCount;
size_t M=1<<20,N=1<<22;int4*j,*o;unsigned*in,*s;cudaMalloc(&j,512*M);cudaMalloc(&o,N*16);cudaMalloc(&in,N*4);cudaMalloc(&s,4096);
cudaMemset(j,3,512*M);cudaMemset(o,0,N*16);cudaMemset(in,1,N*4);
for(int q:{0,8,10}){cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,(size_t)p.l2CacheSize*q/16);
stream<<<sms*8,256>>>(j,512*M/16,s);st<<<N/256,256>>>(o);stream<<<sms*8,256>>>(j,512*M/16,s);ld<<<N/256,256>>>(in,(unsigned*)o);stream<<<sms*8,256>>>(j,512*M/16,s);}
cudaDeviceSynchronize();printf("done %s\n",cudaGetErrorString(cudaGetLastError()));}
