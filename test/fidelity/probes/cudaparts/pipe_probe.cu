// cudaparts probe 2: cp.async groups with wait_prior<N>, cuda::barrier arrive/wait, cuda::pipeline stages
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cstdio>
__global__ void wp(const float*in,float*out,int n){__shared__ float b[2][256];int t=threadIdx.x;float acc=0;
 __pipeline_memcpy_async(&b[0][t],&in[t],4);__pipeline_commit();
 for(int i=1;i<n;i++){__pipeline_memcpy_async(&b[i&1][t],&in[i*256+t],4);__pipeline_commit();
  __pipeline_wait_prior(1);__syncthreads();acc+=b[(i-1)&1][(t+1)&255];__syncthreads();}
 __pipeline_wait_prior(0);__syncthreads();acc+=b[(n-1)&1][(t+1)&255];out[t]=acc;}
__global__ void mb(float*out){__shared__ cuda::barrier<cuda::thread_scope_block> bar;
 if(threadIdx.x==0)init(&bar,blockDim.x);__syncthreads();
 auto tok=bar.arrive();bar.wait(std::move(tok));out[threadIdx.x]=1;}
__global__ void ps(const float*in,float*out,int n){__shared__ float b[2][256];int t=threadIdx.x;float acc=0;
 auto p=cuda::make_pipeline();
 for(int s=0;s<2&&s<n;s++){p.producer_acquire();cuda::memcpy_async(&b[s][t],&in[s*256+t],4,p);p.producer_commit();}
 for(int i=0;i<n;i++){p.consumer_wait();__syncthreads();acc+=b[i&1][(t+1)&255];__syncthreads();p.consumer_release();
  if(i+2<n){p.producer_acquire();cuda::memcpy_async(&b[i&1][t],&in[(i+2)*256+t],4,p);p.producer_commit();}}
 out[t]=acc;}
int main(){float*g;cudaMalloc(&g,1<<22);cudaMemset(g,0,1<<22);
 wp<<<1,256>>>(g,g+(1<<20),8);mb<<<1,256>>>(g);ps<<<1,256>>>(g,g+(1<<20),8);
 printf("%d\n",(int)cudaDeviceSynchronize());}
