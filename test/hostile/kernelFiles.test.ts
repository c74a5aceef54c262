/**
 * Hostile kernel files: syntax errors, exceptions in every hook, malformed definitions, bad IR values,
 * host accesses outside their buffers, runtime-API values CUDA would refuse, paths with spaces. Each
 * is one `error:` line with the user's file:line(:column) and the exit code of its class: 2 for a
 * kernel file that does not load or build, 3 for one whose code fails while it runs.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectError, kernelFile, runCli, scratch, tinyKernel } from './harness.js';

const dir = scratch('kernels');
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface KernelCase {
  title: string;
  source: string;
  code: number;
  /** the message after `error: <file>`; @LINE stands for the kernel file's path */
  message: RegExp | ((file: string) => RegExp);
  args?: string[];
  /** a sub-folder for the file (a path with spaces) */
  folder?: string;
}

/** a program of one kernel whose run() body is `run` */
function program(run: string, extra = ''): string {
  return `import { defineKernel, defineProgram, f32, ptr, u32 } from '@API';
const k = defineKernel({ name: 'pk', params: { out: ptr('global', f32) }, launch: { grid: 1, block: 32 }, setup: () => ({}), body: (k, { out }) => { out.at(k.threadIdx.x).store(1); } });
${extra}
export default defineProgram({
  name: 'prog',
  run: (ctx) => {
    const out = ctx.host.alloc(f32, 1024, 'out');
    ${run}
  },
});
`;
}

const at = (line: number, hook: string, owner = "kernel 'tiny'") => (f: string) => new RegExp(`^error: ${esc(f)}:${line}:\\d+: in ${esc(hook)}\\(\\) of ${esc(owner)}: `);

const cases: KernelCase[] = [
  // --- loading --------------------------------------------------------------------------------
  { title: 'a syntax error keeps its line:column', source: tinyKernel({ body: '(k, { out }) => { out.at(k.threadIdx.x).store(1)) }' }), code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:10:\\d+: syntax error: `) },
  { title: 'a syntax error on line 1', source: 'export default {;\n', code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:1:\\d+: syntax error: `) },
  { title: 'an unterminated string', source: "export const x = 'abc;\n", code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:1:\\d+: syntax error: `) },
  { title: 'an exception at import names its line', source: "import { defineKernel } from '@API';\nconst a = 1;\nthrow new Error('top level boom');\n", code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:3:\\d+: the kernel file threw while loading: Error: top level boom$`) },
  { title: 'a TypeError at import', source: "import { defineKernel } from '@API';\nconst o: { a?: { b: number } } = {};\nexport const x = o.a!.b;\n", code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:3:\\d+: the kernel file threw while loading: TypeError: Cannot read properties of undefined`) },
  { title: 'an import of a missing module', source: "import { nope } from './does-not-exist.js';\nexport default nope;\n", code: 2, message: /^error: (cannot load kernel file .*|.*): .*does-not-exist/ },
  { title: 'a file that exports nothing', source: 'export const x = 1;\n', code: 2, message: (f) => new RegExp(`^error: ${esc(f)} exports no kernels: export default defineKernel`) },
  { title: 'a default export that is not a kernel', source: 'export default 42;\n', code: 2, message: /exports no kernels/ },
  // --- malformed definitions ------------------------------------------------------------------
  { title: 'a kernel without a body', source: tinyKernel({ body: 'undefined as never' }), code: 2, message: (f) => new RegExp(`^error: ${esc(f)}: kernel 'tiny': body is missing; give it body: \\(k, params\\) => \\{ … \\}$`) },
  { title: 'a kernel without params', source: tinyKernel({ params: 'undefined as never' }), code: 2, message: (f) => new RegExp(`^error: ${esc(f)}: kernel 'tiny': params is missing; give it params: \\{ name: type \\}`) },
  { title: 'params that are not IR types', source: tinyKernel({ params: "{ out: ptr('global', f32), n: 'u32' as never }" }), code: 2, message: /kernel 'tiny': params\.n is the string 'u32'; expected an IR type such as u32, f32 or ptr\('global', f32\)$/ },
  { title: 'a kernel without setup', source: tinyKernel({ setup: 'undefined as never' }), code: 2, message: /kernel 'tiny': setup is missing; give it setup: / },
  { title: 'a kernel without a name', source: tinyKernel({ name: 'undefined as never' }), code: 2, message: /kernel \(unnamed\): name is missing; give it name: '<kernel name>'$/ },
  { title: 'a kernel with an empty name', source: tinyKernel({ name: "''" }), code: 2, message: /kernel \(unnamed\): name is the string ''; give it name/ },
  { title: 'a kernel without a launch', source: tinyKernel({ launch: 'undefined as never' }), code: 2, message: /kernel 'tiny': launch is missing; expected \{ grid, block \}/ },
  { title: 'a launch whose grid is text', source: tinyKernel({ launch: "{ grid: 'x' as never, block: 32 }" }), code: 2, message: /kernel 'tiny': launch: grid is the string 'x'; expected a number or \[x, y, z\]$/ },
  { title: 'a launch with negative dynamic shared memory', source: tinyKernel({ launch: '{ grid: 1, block: 32, dynamicShared: -1 }' }), code: 2, message: /launch: dynamicShared is number -1; expected a whole number of bytes >= 0$/ },
  { title: 'a check that is not a function', source: tinyKernel({ check: "'yes' as never" }), code: 2, message: /kernel 'tiny': check is the string 'yes'; expected a function or nothing$/ },
  { title: 'defaults that are not numbers', source: tinyKernel({ defaults: "{ n: 'x' as never }" }), code: 2, message: /kernel 'tiny': defaults\.n is the string 'x'; expected a finite number$/ },
  { title: 'a program without run', source: "import { defineProgram } from '@API';\nexport default defineProgram({ name: 'p' } as never);\n", code: 2, message: /program 'p': run is missing; give it run: \(ctx, scalars\) => \{ … \}$/ },
  { title: 'a program launching a kernel without a body', source: program('ctx.launch(bad, { out });', "const bad = defineKernel({ name: 'bad', params: { out: ptr('global', f32) }, launch: { grid: 1, block: 32 }, setup: () => ({}) } as never);"), code: 2, message: /kernel 'bad': body is missing/ },
  // --- exceptions in hooks --------------------------------------------------------------------
  { title: 'setup throws', source: tinyKernel({ setup: "(h) => { throw new Error('boom in setup'); }" }), code: 3, message: (f) => new RegExp(`${at(8, 'setup')(f).source}threw Error: boom in setup$`) },
  { title: 'setup throws a string', source: tinyKernel({ setup: "(h) => { throw 'just a string'; }" }), code: 3, message: /in setup\(\) of kernel 'tiny': threw just a string$/ },
  { title: 'setup throws a TypeError', source: tinyKernel({ setup: '(h) => { const o = null as unknown as { x: number }; return { out: o.x as never }; }' }), code: 3, message: (f) => new RegExp(`${at(8, 'setup')(f).source}threw TypeError: Cannot read properties of null`) },
  { title: 'setup returns a number', source: tinyKernel({ setup: '() => 42 as never' }), code: 3, message: /kernel 'tiny': setup\(\) returned number 42; return the pointer arguments/ },
  { title: 'setup returns a number for a buffer', source: tinyKernel({ setup: '() => ({ out: 5 as never })' }), code: 3, message: /setup\(\) returned number 5 for 'out'; return a buffer from host\.alloc/ },
  { title: 'setup returns nothing for a pointer parameter', source: tinyKernel({ setup: '() => undefined as never' }), code: 2, message: /kernel 'tiny': pointer parameter 'out' has no buffer; return it from setup\(\)/ },
  { title: 'a launch function throws', source: tinyKernel({ launch: "() => { throw new RangeError('no launch'); }" }), code: 3, message: (f) => new RegExp(`${at(7, 'launch')(f).source}threw RangeError: no launch$`) },
  { title: 'a launch function returns nothing', source: tinyKernel({ launch: '() => undefined as never' }), code: 3, message: /kernel 'tiny': launch\(\) returned is missing; expected \{ grid, block \}/ },
  { title: 'a launch function returns no block', source: tinyKernel({ launch: '() => ({ grid: 1 }) as never' }), code: 3, message: /launch\(\) returned: block is missing; expected a number or \[x, y, z\]$/ },
  { title: 'check throws', source: tinyKernel({ check: "() => { throw new Error('bad check'); }" }), code: 3, message: (f) => new RegExp(`${at(9, 'check')(f).source}threw Error: bad check$`) },
  { title: 'check reads a missing property', source: tinyKernel({ check: '(h, a) => String((a as unknown as { z: { y: number } }).z.y)' }), code: 3, message: /in check\(\) of kernel 'tiny': threw TypeError: Cannot read properties of undefined \(reading 'y'\)$/ },
  { title: 'a program run throws', source: program("throw new Error('run failed');"), code: 3, message: (f) => new RegExp(`^error: ${esc(f)}:8:\\d+: in run\\(\\) of program 'prog': threw Error: run failed$`) },
  { title: 'a program check throws', source: program('ctx.launch(k, { out });').replace("  run: (ctx) => {", "  check: () => { throw new Error('check failed'); },\n  run: (ctx) => {"), code: 3, message: /in check\(\) of program 'prog': threw Error: check failed$/ },
  { title: 'the body throws', source: tinyKernel({ body: "() => { throw new Error('no body today'); }" }), code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:10:\\d+: error in kernel 'tiny': Error: no body today$`) },
  { title: 'a type error in the body', source: tinyKernel({ body: '(k, { out }) => { out.at(k.threadIdx.x).store(k.threadIdx.x.cast(i32)); }' }), code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:10: type error: storing i32 through a pointer to f32`) },
  // --- IR values ------------------------------------------------------------------------------
  { title: 'vec(f32, 3)', source: tinyKernel({ params: "{ out: ptr('global', vec(f32, 3 as 2)) }", defaults: '{}' }), code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:5: vec\\(f32, 3\\): a vector has 2 or 4 elements \\(64- or 128-bit accesses, like int2 or float4\\)$`) },
  { title: 'vec(u32, 8)', source: tinyKernel({ params: "{ out: ptr('global', vec(u32, 8 as 4)) }", defaults: '{}' }), code: 2, message: /vec\(u32, 8\): a vector has 2 or 4 elements/ },
  { title: 'vec(pred, 2)', source: tinyKernel({ params: "{ out: ptr('global', vec(pred, 2)) }", defaults: '{}' }), code: 2, message: /vec\(…, 2\): the element type must be a scalar type other than pred/ },
  { title: 'an interleaved access property of fraction 2', source: tinyKernel({ params: "{ out: ptr('global', f32, { kind: 'interleaved', primary: 'persisting', fraction: 2 }) }", defaults: '{}' }), code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:5: access property 'interleaved': fraction 2 is not in \\(0, 1\\]$`) },
  { title: 'a range access property larger than its total', source: tinyKernel({ params: "{ out: ptr('global', f32, { kind: 'range', base: 0, primaryBytes: 8192, totalBytes: 4096, primary: 'persisting' }) }", defaults: '{}' }), code: 2, message: /access property 'range': primaryBytes 8192 and totalBytes 4096 must be whole numbers with primaryBytes <= totalBytes$/ },
  { title: 'an unknown access property', source: tinyKernel({ params: "{ out: ptr('global', f32, { kind: 'sticky' } as never) }", defaults: '{}' }), code: 2, message: /access property 'sticky': expected one of global, normal, streaming, persisting, shared, interleaved, range$/ },
  { title: 'a u32 default of -5', source: tinyKernel({ defaults: '{ n: -5 }' }), code: 2, message: /kernel 'tiny': defaults\.n = -5: -5 is out of range; 'n' of kernel 'tiny' is a u32/ },
  { title: 'an i32 default of 1.5', source: tinyKernel({ params: "{ out: ptr('global', f32), n: i32 }", defaults: '{ n: 1.5 }' }), code: 2, message: /defaults\.n = 1\.5: 1\.5 is not a whole number; 'n' of kernel 'tiny' is a i32/ },
  // --- host accesses --------------------------------------------------------------------------
  { title: 'a host write past the end', source: tinyKernel({ setup: "(h) => { const out = h.alloc(f32, 32, 'out'); h.write(out, f32, 40, 1); return { out }; }" }), code: 3, message: (f) => new RegExp(`${at(8, 'setup')(f).source}host write of element 40 \\(f32\\) is outside allocation 'out' \\(128 bytes, 32 elements of f32\\)$`) },
  { title: 'a host write at -1', source: tinyKernel({ setup: "(h) => { const out = h.alloc(f32, 32, 'out'); h.write(out, f32, -1, 1); return { out }; }" }), code: 3, message: /host write of element -1 \(f32\) is outside allocation 'out'/ },
  { title: 'a host write at 1.5', source: tinyKernel({ setup: "(h) => { const out = h.alloc(f32, 32, 'out'); h.write(out, f32, 1.5, 1); return { out }; }" }), code: 3, message: /host write of element 1\.5 of 'out': the index must be a whole number/ },
  { title: 'a wider host write at the last element', source: tinyKernel({ setup: "(h) => { const out = h.alloc(f32, 32, 'out'); h.write(out, f64, 16, 1); return { out }; }" }), code: 3, message: /host write of element 16 \(f64\) is outside allocation 'out'/ },
  { title: 'a misaligned host write', source: tinyKernel({ setup: "(h) => { const out = h.alloc(f32, 32, 'out'); h.write(h.offset(out, u8, 1), f32, 0, 1); return { out }; }" }), code: 3, message: /host write of element 0 \(f32\) of 'out' is misaligned/ },
  { title: 'a host read past the end in check', source: tinyKernel({ check: '(h, { out }) => String(h.read(out, f32, 32))' }), code: 3, message: (f) => new RegExp(`${at(9, 'check')(f).source}host read of element 32 \\(f32\\) is outside allocation 'out'`) },
  { title: 'host.alloc of -1 elements', source: tinyKernel({ setup: "(h) => ({ out: h.alloc(f32, -1, 'out') })" }), code: 3, message: /in setup\(\) of kernel 'tiny': host\.alloc of 'out': -1 elements; the count must be a whole number from 1 to 2\^53-1$/ },
  { title: 'host.alloc of 1.5 elements', source: tinyKernel({ setup: "(h) => ({ out: h.alloc(f32, 1.5, 'out') })" }), code: 3, message: /host\.alloc of 'out': 1\.5 elements/ },
  { title: 'a huge host.alloc (2^60 elements)', source: tinyKernel({ setup: "(h) => ({ out: h.alloc(f32, 2 ** 60, 'out') })" }), code: 3, message: /host\.alloc of 'out': 1152921504606847000 elements; the count must be a whole number from 1 to 2\^53-1$/ },
  { title: 'host.alloc of 2^50 f32 (4 PiB)', source: tinyKernel({ setup: "(h) => ({ out: h.alloc(f32, 2 ** 50, 'out') })" }), code: 3, message: /k_\d+\.ts:\d+: out of memory \(cudaErrorMemoryAllocation\): cudaMalloc of 4 PiB for 'out' exceeds the NVIDIA H200's free device memory/ },
  { title: 'host.alloc of NaN elements', source: tinyKernel({ setup: "(h) => ({ out: h.alloc(f32, NaN, 'out') })" }), code: 3, message: /host\.alloc of 'out': NaN elements/ },
  { title: 'host.alloc without a type', source: tinyKernel({ setup: "(h) => ({ out: h.alloc(undefined as never, 32, 'out') })" }), code: 3, message: /host alloc: the element type must be a scalar type such as f32 or u32$/ },
  { title: 'an initialiser that throws (run lazily, mid-kernel)', source: tinyKernel({ setup: "(h) => ({ out: h.alloc(f32, 32, 'out', () => { throw new Error('bad init'); }) })" }), code: 3, message: /the initialiser of host\.alloc 'out' threw Error: bad init$/ },
  // --- device faults and resource limits ------------------------------------------------------
  { title: 'a device access out of bounds', source: tinyKernel({ body: '(k, { out }) => { out.at(k.threadIdx.x.add(4096)).store(1); }' }), code: 3, message: (f) => new RegExp(`^error: ${esc(f)}:10: invalid global write of 4 bytes at 0x[0-9a-f]+ by thread \\(0,0,0\\) in block \\(0,0,0\\) in kernel 'tiny': 16256 bytes after the end of allocation 'out'`) },
  { title: 'a runaway loop under --max-warp-instructions', source: tinyKernel({ body: '(k, { out }) => { k.while(() => k.threadIdx.x.ge(0), () => { out.at(k.threadIdx.x).store(1); }); }' }), args: ['--max-warp-instructions', '2000'], code: 3, message: /runaway|2,?000/ },
  { title: 'too many threads per block', source: tinyKernel({ launch: '{ grid: 1, block: 4096 }' }), code: 3, message: /invalid launch of 'tiny' .*4096 threads per block; the maximum is 1024/ },
  { title: 'too much dynamic shared memory', source: tinyKernel({ launch: '{ grid: 1, block: 32, dynamicShared: 1 << 30 }' }), code: 3, message: /invalid launch of 'tiny' .*bytes of shared memory per block; the maximum is/ },
  { title: 'a grid of 2^31 blocks', source: tinyKernel({ launch: '{ grid: 2 ** 31, block: 32 }' }), code: 3, message: /gridDim\.x is limited to 2\^31-1/ },
  { title: "a program's launch that goes out of bounds", source: program('ctx.launch(oob, { out });', "const oob = defineKernel({ name: 'oob', params: { out: ptr('global', f32) }, launch: { grid: 1, block: 32 }, setup: () => ({}), body: (k, { out }) => { out.at(k.threadIdx.x.add(1 << 20)).store(1); } });"), code: 3, message: (f) => new RegExp(`^error: ${esc(f)}:3: invalid global write of 4 bytes .* in kernel 'oob': `) },
  { title: "a program's launch with an invalid configuration", source: program('ctx.launch(k, { out }, { block: 4096 });'), code: 3, message: /invalid launch of 'pk' <<<\(1,1,1\), \(4096,1,1\)>>>: 4096 threads per block/ },
  // --- runtime API values ---------------------------------------------------------------------
  { title: 'an access-policy hitRatio of 7', source: program("ctx.setAccessPolicyWindow({ base: out, bytes: 4096, hitRatio: 7, hitProp: 'persisting', missProp: 'streaming' });"), code: 3, message: (f) => new RegExp(`^error: ${esc(f)}:8:\\d+: in run\\(\\) of program 'prog': setAccessPolicyWindow: hitRatio 7 is not a fraction in \\[0, 1\\] \\(cudaErrorInvalidValue\\)$`) },
  { title: 'an access-policy hitRatio of -0.1', source: program("ctx.setAccessPolicyWindow({ base: out, bytes: 4096, hitRatio: -0.1, hitProp: 'persisting', missProp: 'streaming' });"), code: 3, message: /hitRatio -0\.1 is not a fraction in \[0, 1\]/ },
  { title: 'an access-policy hitRatio of NaN', source: program("ctx.setAccessPolicyWindow({ base: out, bytes: 4096, hitRatio: NaN, hitProp: 'persisting', missProp: 'streaming' });"), code: 3, message: /hitRatio NaN is not a fraction in \[0, 1\]/ },
  { title: 'an access-policy window past the maximum', source: program("ctx.setAccessPolicyWindow({ base: out, bytes: 2 ** 40, hitRatio: 1, hitProp: 'persisting', missProp: 'streaming' });"), code: 3, message: /bytes 1099511627776 must be a whole number from 0 to the NVIDIA H200's accessPolicyMaxWindowSize \(134217728\)/ },
  { title: 'an access-policy hitProp unknown', source: program("ctx.setAccessPolicyWindow({ base: out, bytes: 4096, hitRatio: 1, hitProp: 'sticky' as never, missProp: 'streaming' });"), code: 3, message: /hitProp 'sticky' must be 'normal', 'streaming' or 'persisting'/ },
  { title: 'an access-policy base that is not a buffer', source: program("ctx.setAccessPolicyWindow({ base: 0 as never, bytes: 4096, hitRatio: 1, hitProp: 'persisting', missProp: 'streaming' });"), code: 3, message: /setAccessPolicyWindow: base must be a buffer from host\.alloc/ },
  { title: 'a persisting-L2 limit of -5', source: program('ctx.setPersistingL2Limit(-5);'), code: 3, message: (f) => new RegExp(`^error: ${esc(f)}:8:\\d+: in run\\(\\) of program 'prog': setPersistingL2Limit\\(-5\\): the limit is a whole number of bytes from 0`) },
  { title: 'a persisting-L2 limit of 1.5', source: program('ctx.setPersistingL2Limit(1.5);'), code: 3, message: /setPersistingL2Limit\(1\.5\): the limit is a whole number of bytes/ },
  { title: 'a persisting-L2 limit of NaN', source: program('ctx.setPersistingL2Limit(NaN);'), code: 3, message: /setPersistingL2Limit\(NaN\)/ },
  // --- paths ----------------------------------------------------------------------------------
  { title: 'a type error in a file whose path has spaces', folder: 'with some spaces', source: tinyKernel({ body: '(k, { out }) => { out.at(k.threadIdx.x).store(k.threadIdx.x.cast(i32)); }' }), code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:10: type error: storing i32`) },
  { title: 'setup throwing in a file whose path has spaces', folder: 'more spaces (and parens)', source: tinyKernel({ setup: "(h) => { throw new Error('spaced out'); }" }), code: 3, message: (f) => new RegExp(`${at(8, 'setup')(f).source}threw Error: spaced out$`) },
  { title: 'a syntax error in a file whose path has spaces', folder: 'space syntax', source: 'export default {;\n', code: 2, message: (f) => new RegExp(`^error: ${esc(f)}:1:\\d+: syntax error: `) },
];

describe('hostile kernel files', () => {
  for (const c of cases) {
    it(c.title, async () => {
      let d = dir;
      if (c.folder) {
        d = join(dir, c.folder);
        mkdirSync(d, { recursive: true });
      }
      const file = kernelFile(d, c.source);
      const r = await runCli(['profile', file, '--no-timing', ...(c.args ?? [])]);
      // the file as the report names it: relative to the working directory
      const shown = (await import('node:path')).relative(process.cwd(), file);
      const line = expectError(r, c.code, typeof c.message === 'function' ? new RegExp(`(${c.message(shown).source})|(${c.message(file).source})`) : c.message);
      void line;
    });
  }
});
