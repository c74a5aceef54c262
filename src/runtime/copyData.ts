/** The bytes a copy or memset moves, between device memory and host buffers. */
import type { DevicePtr } from '../memory/deviceMemory.js';
import { PAGE_BYTES } from '../memory/deviceMemory.js';
import { HostBuffer, type CopyEnd } from './types.js';

/** up to `n` bytes of device memory at `p + off` as a view within one page */
function deviceSpan(p: DevicePtr, off: number, n: number): Uint8Array {
  const a = p.allocation;
  const o = p.address + off - a.base;
  const inPage = o % PAGE_BYTES;
  const len = Math.min(n, PAGE_BYTES - inPage);
  const page = a.page(o).ready(inPage, len);
  return page.u8.subarray(inPage, inPage + len);
}

function span(e: CopyEnd, off: number, n: number): Uint8Array {
  return e instanceof HostBuffer ? e.bytes.subarray(off, off + n) : deviceSpan(e, off, n);
}

export function copyBytes(dst: CopyEnd, dstOff: number, src: CopyEnd, srcOff: number, bytes: number): void {
  // a temporary keeps overlapping device ranges right (cudaMemcpy's result on overlap is undefined anyway)
  const tmp = new Uint8Array(bytes);
  for (let done = 0; done < bytes; ) {
    const s = span(src, srcOff + done, bytes - done);
    tmp.set(s, done);
    done += s.length;
  }
  for (let done = 0; done < bytes; ) {
    const d = span(dst, dstOff + done, bytes - done);
    d.set(tmp.subarray(done, done + d.length));
    done += d.length;
  }
}

export function setBytes(dst: DevicePtr, off: number, value: number, bytes: number): void {
  for (let done = 0; done < bytes; ) {
    const d = deviceSpan(dst, off + done, bytes - done);
    d.fill(value);
    done += d.length;
  }
}
