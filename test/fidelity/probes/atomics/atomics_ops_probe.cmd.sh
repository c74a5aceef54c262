export PATH=$PATH:/usr/local/cuda/bin; cat > /tmp/p.cu <<'EOF'
// 32 lanes of a warp, one address: each atomic op's time per lane (issue #40 item 3b)
#include <cstdio>
__global__ void k(int*p,int m){int t=blockIdx.x*blockDim.x+threadIdx.x,h=t>>30;unsigned*u=(unsigned*)p+h;for(int i=0;i<16;i++)switch(m){
case 0:atomicInc(u,17);break;case 1:atomicDec(u,137);break;case 2:atomicMax(p+h,t);break;case 3:atomicAnd(p+h,2*t+7);break;
case 4:atomicXor(p+h,t);break;case 5:atomicAdd((float*)p+h,1.f);break;case 6:atomicSub(p+h,10);break;}}
int main(){int*p;cudaMalloc(&p,64);cudaEvent_t a,b;cudaEventCreate(&a);cudaEventCreate(&b);
for(int m=0;m<7;m++){k<<<64,256>>>(p,m);cudaEventRecord(a);k<<<64,256>>>(p,m);cudaEventRecord(b);cudaEventSynchronize(b);
float ms;cudaEventElapsedTime(&ms,a,b);printf("op=%d us=%.2f ns_per_lane_op=%.4f\n",m,ms*1e3,ms*1e6/(64*256*16));}}
EOF
nvcc -arch=sm_90 -O3 -o /tmp/p /tmp/p.cu && /tmp/p | tee $OUT/atomics_ops_probe_h200.txt; cuobjdump -sass /tmp/p | grep -cE 'LDG'
