// same-address vs distinct-address global atomic throughput on the H200 (issue #40 item 3b)
#include <cstdio>
__global__ void k(int*p,int m,int it,int sp){int t=blockIdx.x*blockDim.x+threadIdx.x,l=threadIdx.x&31,h=t>>30,r=0;
for(int i=0;i<it;i++){switch(m){
case 0:if(!l)r+=atomicAdd(p+h,1);break;             // 1 lane/warp, one address
case 1:r+=atomicExch(p+h,t+i);break;                 // 32 lanes, one address
case 2:r+=atomicCAS(p+h,t-1,t);break;
case 3:r+=atomicAdd(p+h,1);break;
case 4:r+=atomicAdd(p+(t&(sp-1)),1);break;           // 32 lanes, distinct words (sp of them)
case 5:if(!l)r+=atomicAdd(p+((t>>5)&(sp-1))*32,1);break; // 1 lane/warp, sp addresses 128 B apart
case 6:atomicAdd(p+h,1);break;                       // RED, one address
case 7:r+=atomicExch(p+h+2,t);r+=atomicCAS(p+h+7,t-1,t);break; // simpleAtomics' pair
}}if(r==0x7fffffff)p[1<<20]=r;}
int main(){int*p;cudaMalloc(&p,8<<20);cudaEvent_t a,b;cudaEventCreate(&a);cudaEventCreate(&b);
int G[]={64,1056},S[]={1,32,1<<20};
for(int m=0;m<8;m++)for(int g:G)for(int s:S){if(s!=1&&m!=4&&m!=5)continue;int it=16;
k<<<g,256>>>(p,m,it,s);cudaEventRecord(a);k<<<g,256>>>(p,m,it,s);cudaEventRecord(b);cudaEventSynchronize(b);
float ms;cudaEventElapsedTime(&ms,a,b);double ops=(double)g*256*it*(m==7?2:1)/((m==0||m==5)?32:1);
printf("mode=%d grid=%d spread=%d iters=%d us=%.2f ops=%.0f ns_per_op=%.4f\n",m,g,s,it,ms*1e3,ops,ms*1e6/ops);}
k<<<1,32>>>(p,0,0,1);printf("err=%s\n",cudaGetErrorString(cudaDeviceSynchronize()));}
