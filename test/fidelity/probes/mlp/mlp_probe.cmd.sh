export PATH=$PATH:/usr/local/cuda/bin; cat > /tmp/p.cu <<'EOF'
// a latency-bound grid-stride sum with L independent loads per trip (#pragma unroll 1): issue #40 item 3a
#include <cstdio>
template<int L>__global__ void s(const float*a,float*o,int n){int i=blockIdx.x*blockDim.x+threadIdx.x,g=gridDim.x*blockDim.x;float x=0;
#pragma unroll 1
for(;i<n;i+=L*g){
#pragma unroll
for(int j=0;j<L;j++)x+=a[i+j*g];}o[blockIdx.x*blockDim.x+threadIdx.x]=x;}
int main(){int n=1<<22;float*a,*o;char*f;cudaMalloc(&a,4*n);cudaMemset(a,0,4*n);cudaMalloc(&o,4<<20);cudaMalloc(&f,256<<20);
cudaEvent_t e0,e1;cudaEventCreate(&e0);cudaEventCreate(&e1);int G[][2]={{64,128},{132,256}};
for(auto&c:G)for(int L=1;L<=8;L*=2)for(int r=0;r<2;r++){cudaMemset(f,r,256<<20);cudaEventRecord(e0);
if(L==1)s<1><<<c[0],c[1]>>>(a,o,n);if(L==2)s<2><<<c[0],c[1]>>>(a,o,n);if(L==4)s<4><<<c[0],c[1]>>>(a,o,n);if(L==8)s<8><<<c[0],c[1]>>>(a,o,n);
cudaEventRecord(e1);cudaEventSynchronize(e1);float ms;cudaEventElapsedTime(&ms,e0,e1);if(r)printf("grid=%d block=%d loads_per_trip=%d us=%.2f\n",c[0],c[1],L,ms*1e3);}}
EOF
nvcc -arch=sm_90 -O3 -o /tmp/p /tmp/p.cu && /tmp/p | tee $OUT/mlp_probe_h200.txt; cuobjdump -sass /tmp/p | grep -cE 'LDG'
