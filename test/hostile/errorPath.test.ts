/**
 * The one error path in isolation: any thrown value becomes one line and an exit code of its class
 * (src/cli/errorLine.ts), stack frames parse whole whatever the path holds, and a kernel file's load
 * error keeps its place in each transpiler's format (the CLI's esbuild through tsx, Node's parser).
 */
import { describe, expect, it } from 'vitest';
import { errorLine } from '../../src/cli/errorLine.js';
import { EXIT, HostFault, KernelFault, UserError, describeThrown, escapeControl, parseFrame } from '../../src/errors.js';
import { describeLoadError } from '../../src/kernel/loadError.js';
import { parseScalarParam } from '../../src/kernel/params.js';

describe('errorLine', () => {
  const cases: [string, unknown, number, RegExp | string][] = [
    ['a UserError', new UserError('bad input'), EXIT.USAGE, 'bad input'],
    ['a multi-line UserError is one line', new UserError('first\n  second\n'), EXIT.USAGE, 'first second'],
    ['a KernelFault', new KernelFault('out-of-bounds', 'k.ts:3: invalid read'), EXIT.KERNEL_FAULT, 'k.ts:3: invalid read'],
    ['a HostFault', new HostFault('k.ts:4:2: in setup() of kernel x: threw Error: y'), EXIT.KERNEL_FAULT, /^k\.ts:4:2: in setup\(\)/],
    ['a UserError with exit 1', new UserError('regression', EXIT.CHECK_FAILED), EXIT.CHECK_FAILED, 'regression'],
    ['control characters', new UserError('a\u001b[2Jb\u0007'), EXIT.USAGE, 'a\\x1b[2Jb\\x07'],
    ['a TypeError is internal', new TypeError('x is not a function'), EXIT.INTERNAL, /^internal error: TypeError: x is not a function \(at .*\); this is a bug in Warpsight, please report it$/],
    ['a thrown string is internal', 'oops', EXIT.INTERNAL, /^internal error: oops; this is a bug/],
    ['a thrown undefined is internal', undefined, EXIT.INTERNAL, /^internal error: thrown value undefined; this is a bug/],
    ['a thrown object', { a: 1 }, EXIT.INTERNAL, /^internal error: thrown value \{"a":1\}; this is a bug/],
    ['a file-system error names its path', Object.assign(new Error("EACCES: permission denied, open '/x/y'"), { code: 'EACCES', path: '/x/y', syscall: 'open' }), EXIT.USAGE, '/x/y: cannot open it (EACCES)'],
    ['an oclif flag error', Object.assign(new Error('Expected an integer but received: abc\nSee more help with --help'), { oclif: { exit: 2 } }), EXIT.USAGE, 'Expected an integer but received: abc (see --help)'],
  ];
  for (const [title, thrown, exit, message] of cases) {
    it(title, () => {
      const r = errorLine(thrown);
      expect(r.exit).toBe(exit);
      expect(r.message).not.toContain('\n');
      if (typeof message === 'string') expect(r.message).toBe(message);
      else expect(r.message).toMatch(message);
    });
  }
  it('UserError is recognised by class name across module copies', () => {
    const foreign = Object.assign(new Error('x'), { name: 'UserError' });
    expect(foreign instanceof UserError).toBe(false);
    const k = new KernelFault('runaway', 'r');
    expect(k instanceof UserError && k instanceof KernelFault).toBe(true);
    expect(new UserError('u') instanceof KernelFault).toBe(false);
    expect(new HostFault('h') instanceof KernelFault).toBe(false);
  });
});

describe('stack frames', () => {
  const cases: [string, string, { fn: string; file: string; line: number; column: number } | null][] = [
    ['a named frame', '    at setup (/tmp/k.ts:8:25)', { fn: 'setup', file: '/tmp/k.ts', line: 8, column: 25 }],
    ['a path with spaces', '    at Object.setup (/tmp/with space/my kernel.ts:8:25)', { fn: 'Object.setup', file: '/tmp/with space/my kernel.ts', line: 8, column: 25 }],
    ['a path with parentheses', '    at body (/tmp/a (1)/k.ts:3:4)', { fn: 'body', file: '/tmp/a (1)/k.ts', line: 3, column: 4 }],
    ['an anonymous frame', '    at /tmp/with space/k.ts:1:2', { fn: '', file: '/tmp/with space/k.ts', line: 1, column: 2 }],
    ['a file URL with an escaped space', '    at run (file:///tmp/with%20space/k.ts:5:6)', { fn: 'run', file: '/tmp/with space/k.ts', line: 5, column: 6 }],
    ['an async frame', '    at async Profile.run (/w/commands/profile.ts:51:20)', { fn: 'async Profile.run', file: '/w/commands/profile.ts', line: 51, column: 20 }],
    ['not a frame', 'Error: boom', null],
    ['native code', '    at Array.map (<anonymous>)', null],
  ];
  for (const [title, text, want] of cases) it(title, () => expect(parseFrame(text)).toEqual(want));
});

describe('kernel-file load errors', () => {
  it("esbuild's transform error (the CLI, through tsx) keeps line:column", () => {
    const e = new Error('Transform failed with 1 error:\n/tmp/my kernels/k.ts:7:56: ERROR: Expected ";" but found ")"');
    expect(describeLoadError(e, '/tmp/my kernels/k.ts')).toBe('/tmp/my kernels/k.ts:7:56: syntax error: Expected ";" but found ")"');
  });
  it("Node's own SyntaxError (a .js kernel file) keeps line:column", () => {
    const e = new SyntaxError('Unexpected token \';\'');
    e.stack = "file:///tmp/k.js:3\nexport default 1 +;\n                  ^\n\nSyntaxError: Unexpected token ';'";
    expect(describeLoadError(e, '/tmp/k.js')).toBe("/tmp/k.js:3:19: syntax error: Unexpected token ';'");
  });
  it('a module that cannot be found', () => {
    const e = new Error("Cannot find module './x.js' imported from /tmp/k.ts");
    e.stack = `Error: ${e.message}\n    at finalizeResolution (node:internal/modules/esm/resolve:275:11)`;
    expect(describeLoadError(e, '/tmp/k.ts')).toBe("cannot load kernel file /tmp/k.ts: Error: Cannot find module './x.js' imported from /tmp/k.ts");
  });
});

describe('small pieces', () => {
  it('escapeControl', () => {
    expect(escapeControl('a\tb\r\nc\u009b\u007f')).toBe('a\\tb\\r\\nc\\x9b\\x7f');
    expect(escapeControl('plain → ünïcode 💥')).toBe('plain → ünïcode 💥');
  });
  it('describeThrown', () => {
    expect(describeThrown(new RangeError('r'))).toBe('RangeError: r');
    expect(describeThrown(null)).toBe('thrown value null');
  });
  const params: [string, string, Parameters<typeof parseScalarParam>[2], number | RegExp][] = [
    ['u32 hex', '0x10', { tag: 'scalar', kind: 'u32' }, 16],
    ['i8 -128', '-128', { tag: 'scalar', kind: 'i8' }, -128],
    ['i8 -129', '-129', { tag: 'scalar', kind: 'i8' }, /-129 is out of range; 'v' of kernel 'k' is a i8 \(a whole number -128 to 127\)$/],
    ['u16 65536', '65536', { tag: 'scalar', kind: 'u16' }, /out of range/],
    ['i16 1e3', '1e3', { tag: 'scalar', kind: 'i16' }, 1000],
    ['f32 -3.4e38', '-3.4e38', { tag: 'scalar', kind: 'f32' }, -3.4e38],
    ['pred false', 'false', { tag: 'scalar', kind: 'pred' }, 0],
    ['untyped 1.5', '1.5', undefined, 1.5],
  ];
  for (const [title, raw, type, want] of params) {
    it(`--param ${title}`, () => {
      let got: number | string;
      try {
        got = parseScalarParam('v', raw, type, "kernel 'k'");
      } catch (e) {
        got = e instanceof UserError ? e.message : String(e);
      }
      if (typeof want === 'number') expect(got).toBe(want);
      else expect(String(got)).toMatch(want);
    });
  }
});
