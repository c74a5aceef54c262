// cudaparts probe 2b: tiled_partition<64> (a tile larger than a warp) and cg::reduce on it
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg=cooperative_groups;
__global__ void tp(int*out){__shared__ cg::block_tile_memory<256> sc;auto blk=cg::this_thread_block(sc);
 auto tile=cg::tiled_partition<64>(blk);int v=cg::reduce(tile,(int)threadIdx.x,cg::plus<int>());
 tile.sync();out[threadIdx.x]=v;}
int main(){int*g;cudaMalloc(&g,1<<12);tp<<<1,256>>>(g);printf("%d\n",(int)cudaDeviceSynchronize());}
