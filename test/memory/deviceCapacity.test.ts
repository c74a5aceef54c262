/**
 * Device memory is bounded by the GPU's (arch globalMemBytes, cudaDeviceProp::totalGlobalMem), though
 * the emulator makes pages only where a kernel touches them: an allocation beyond what is free fails
 * as cudaMalloc does (cudaErrorMemoryAllocation), located at the kernel file's line (issue 38).
 */
import { describe, expect, it } from 'vitest';
import { getArch } from '../../src/arch/index.js';
import { DeviceMemory, formatBytes } from '../../src/memory/deviceMemory.js';
import { profileFile } from '../../src/profile.js';

describe('device memory capacity', () => {
  it('is the arch data\'s totalGlobalMem', () => {
    expect(getArch('h200').globalMemBytes).toBe(150_109_880_320);
    expect(getArch('h100').globalMemBytes).toBe(85_017_493_504);
    expect(getArch('a100').globalMemBytes).toBe(42_505_273_344);
  });

  it('fails an allocation beyond the free memory and frees what a kernel released', () => {
    const mem = new DeviceMemory();
    mem.setCapacity(64 << 20, 'GPU');
    const mark = mem.mark();
    mem.alloc(40 << 20, 'a');
    // 40 MiB taken, 24 MiB free: 30 MiB does not fit
    expect(() => mem.alloc(30 << 20, 'b')).toThrowError(/out of memory \(cudaErrorMemoryAllocation\): cudaMalloc of 30 MiB for 'b' exceeds the GPU's free device memory \(24 MiB of 64 MiB\)/);
    // cudaMalloc's 2 MiB granularity: 12 allocations of 1 byte take 24 MiB
    for (let i = 0; i < 12; i++) mem.alloc(1, `small${i}`);
    expect(() => mem.alloc(1, 'one_more')).toThrowError(/free device memory \(0 B of 64 MiB\)/);
    mem.release(mark);
    expect(mem.alloc(64 << 20, 'all').address).toBeGreaterThan(0);
  });

  it('reports a 4 TiB allocation on an H200 as out of memory at the setup line', async () => {
    await expect(profileFile({ file: 'test/fixtures/alloc_4tib.ts' })).rejects.toThrowError(
      /^test\/fixtures\/alloc_4tib\.ts:12: out of memory \(cudaErrorMemoryAllocation\): cudaMalloc of 4 TiB for 'huge' exceeds the NVIDIA H200's free device memory \(139\.80 GiB of 139\.80 GiB\); allocate less/,
    );
  });

  it('lets an allocation as large as the device profile (pages are made only where touched)', async () => {
    // 139 GiB fits an H200's 139.8: the kernel touches one line of it
    const r = await profileFile({ file: 'test/fixtures/alloc_4tib.ts', params: { gib: '139' }, timing: false });
    expect(r.kernels[0]?.metrics['smsp__inst_executed.sum']).toBeGreaterThan(0);
    expect(formatBytes(139 * 2 ** 30)).toBe('139 GiB');
  });
});
