// Memory synchronization domains on two H200s (issue 39 item 4): a local kernel on GPU 0 fences
// (__threadfence) every iteration while a communication kernel on GPU 0 stores into GPU 1 over NVLink
// (P2P stores) on another stream; the comm kernel launched in the default domain, the remote domain,
// and the remote domain with memSyncDomainMap {0,0}; and the local kernel alone. Prints per variant and
// repetition: local kernel ms, mean clock64 cycles per fence per thread, comm kernel ms.
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t E_=(x);if(E_){printf("ERR %s line %d\n",cudaGetErrorString(E_),__LINE__);return 1;}}while(0)
__global__ void comm(int*p,size_t w,int reps){size_t t=blockIdx.x*(size_t)blockDim.x+threadIdx.x,n=gridDim.x*(size_t)blockDim.x;
for(int r=0;r<reps;r++)for(size_t i=t;i<w;i+=n)p[i]=(int)i+r;}
__global__ void local(int*d,int it,long long*fc){int t=blockIdx.x*blockDim.x+threadIdx.x;long long s=0;
for(int i=0;i<it;i++){d[t]+=1;long long a=clock64();__threadfence();s+=clock64()-a;}fc[t]=s;}
int main(){int nd=0;CK(cudaGetDeviceCount(&nd));if(nd<2){printf("ERR 2 GPUs needed\n");return 1;}
int dc=0;CK(cudaDeviceGetAttribute(&dc,cudaDevAttrMemSyncDomainCount,0));printf("memSyncDomainCount %d\n",dc);
CK(cudaSetDevice(1));size_t W=64<<20;int*peer;CK(cudaMalloc(&peer,W*4));
CK(cudaSetDevice(0));CK(cudaDeviceEnablePeerAccess(1,0));
const int LB=8,LT=128,IT=2000,N=LB*LT;int*d;long long*fc;CK(cudaMalloc(&d,N*4));CK(cudaMalloc(&fc,N*8));
cudaStream_t sc,sl;CK(cudaStreamCreateWithFlags(&sc,cudaStreamNonBlocking));CK(cudaStreamCreateWithFlags(&sl,cudaStreamNonBlocking));
cudaEvent_t a,b,c,e;cudaEventCreate(&a);cudaEventCreate(&b);cudaEventCreate(&c);cudaEventCreate(&e);
long long h[N];const char*nm[4]={"alone","same_domain","remote_domain","remote_mapped_to_0"};
printf("variant,rep,local_ms,fence_cycles,comm_ms\n");
for(int rep=0;rep<6;rep++)for(int v=0;v<4;v++){
cudaLaunchAttribute at[2];int na=0;at[na].id=cudaLaunchAttributeMemSyncDomain;
at[na].val.memSyncDomain=v>=2?cudaLaunchMemSyncDomainRemote:cudaLaunchMemSyncDomainDefault;na++;
if(v==3){at[na].id=cudaLaunchAttributeMemSyncDomainMap;at[na].val.memSyncDomainMap.default_=0;at[na].val.memSyncDomainMap.remote=0;na++;}
cudaLaunchConfig_t cf={};cf.gridDim=dim3(66);cf.blockDim=dim3(512);cf.stream=sc;cf.attrs=at;cf.numAttrs=na;
CK(cudaDeviceSynchronize());CK(cudaEventRecord(c,sc));
if(v>0)CK(cudaLaunchKernelEx(&cf,comm,peer,W,4));
CK(cudaEventRecord(e,sc));CK(cudaEventRecord(a,sl));local<<<LB,LT,0,sl>>>(d,IT,fc);CK(cudaEventRecord(b,sl));
CK(cudaDeviceSynchronize());float lm,cm;cudaEventElapsedTime(&lm,a,b);cudaEventElapsedTime(&cm,c,e);
CK(cudaMemcpy(h,fc,N*8,cudaMemcpyDeviceToHost));double s=0;for(int i=0;i<N;i++)s+=h[i];
printf("%s,%d,%.4f,%.1f,%.4f\n",nm[v],rep,lm,s/N/IT,cm);}
return 0;}
