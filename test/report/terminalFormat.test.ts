import { describe, expect, it } from 'vitest';
import {
  formatMetric,
  formatNumber,
  formatSpeedup,
  groupThousands,
  pyFixed,
  scaleUnit,
  wrapNcu,
} from '../../src/report/format.js';

describe('formatNumber (ncu metric values)', () => {
  it.each([
    [150075, '150,075'],
    [4194304, '4,194,304'],
    [100, '100'],
    [0, '0'],
    [32, '32'],
    [141937.25, '141,937.25'],
    [3.2, '3.20'],
    [7122.998, '7,123.00'],
    [0.0004, '0.00'],
    [-1234.5, '-1,234.50'],
  ])('%s → %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });
});

describe('scaleUnit / formatMetric (ncu --print-units auto)', () => {
  it.each([
    [1024, 'byte/block', '1.02', 'Kbyte/block'],
    [0, 'byte/block', '0', 'byte/block'],
    [4096, 'byte/block', '4.10', 'Kbyte/block'],
    [32768, 'byte', '32.77', 'Kbyte'],
    [102400, 'byte', '102.40', 'Kbyte'],
    [11796480, 'byte', '11.80', 'Mbyte'],
    [30998528, 'byte', '31.00', 'Mbyte'],
    [268448768, 'byte', '268.45', 'Mbyte'],
    [3766366244725.74, 'byte/s', '3.77', 'Tbyte/s'],
    [226693670886.08, 'byte/s', '226.69', 'Gbyte/s'],
    [75840, 'ns', '75.84', 'us'],
    [999, 'ns', '999', 'ns'],
    [2_500_000, 'ns', '2.50', 'ms'],
    [1977709651.9, 'hz', '1.98', 'Ghz'],
    [3198874824.19, 'hz', '3.20', 'Ghz'],
    [59430000000, 'sector/s', '59.43', 'sector/ns'],
    [0, 'sector/s', '0', 'sector/s'],
    [150075, 'cycle', '150,075', 'cycle'],
    [4194304, 'sector', '4,194,304', 'sector'],
    [100.29, '%', '100.29', '%'],
  ])('%s %s → %s %s', (value, unit, text, scaledUnit) => {
    expect(formatMetric(value, unit)).toEqual({ value: text, unit: scaledUnit });
  });

  it('leaves strings alone', () => {
    expect(formatMetric('CachePreferNone', '')).toEqual({ value: 'CachePreferNone', unit: '' });
  });

  it('does not scale below 1000', () => {
    expect(scaleUnit(512, 'byte')).toEqual({ value: 512, unit: 'byte' });
  });
});

describe('pyFixed (Python format, as in ncu rule texts)', () => {
  it('rounds exact ties to even, like Python', () => {
    expect(pyFixed(0.125, 2)).toBe('0.12');
    expect(pyFixed(0.375, 2)).toBe('0.38');
    expect(pyFixed(2.5, 0)).toBe('2');
    expect(pyFixed(3.5, 0)).toBe('4');
    expect(pyFixed(0.5, 0)).toBe('0');
  });

  it('rounds non-ties to nearest', () => {
    expect(pyFixed(77.77777, 0)).toBe('78');
    expect(pyFixed(32.2537, 1)).toBe('32.3');
    expect(pyFixed(35.587, 1)).toBe('35.6');
    expect(pyFixed(0.1 + 0.2, 2)).toBe('0.30');
  });

  it('keeps the sign of small negatives', () => {
    expect(pyFixed(-0.001, 2)).toBe('-0.00');
  });
});

describe('formatSpeedup', () => {
  it.each([
    [73.90439648806405, '73.9'],
    [98.66, '98.66'],
    [15.680000000000009, '15.68'],
    [100, '100'],
    [0, '0'],
    [10.714285714, '10.71'],
  ])('%s → %s', (value, text) => {
    expect(formatSpeedup(value)).toBe(text);
  });
});

describe('groupThousands', () => {
  it('groups only the integer digits', () => {
    expect(groupThousands('1234567.125')).toBe('1,234,567.125');
    expect(groupThousands('999')).toBe('999');
  });
});

describe('wrapNcu (rule messages, 110 columns)', () => {
  it('wraps UncoalescedGlobalAccess exactly as ncu did', () => {
    const message =
      'This kernel has uncoalesced global accesses resulting in a total of 3670016 excessive sectors (78% of the total ' +
      '4718592 sectors). Check the L2 Theoretical Sectors Global Excessive table for the primary source locations. The ' +
      'CUDA Programming Guide (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-memory-accesses) ' +
      'has additional information on reducing uncoalesced device memory accesses.';
    expect(wrapNcu(message)).toEqual([
      'This kernel has uncoalesced global accesses resulting in a total of 3670016 excessive sectors (78% of the',
      'total 4718592 sectors). Check the L2 Theoretical Sectors Global Excessive table for the primary source',
      'locations. The CUDA Programming Guide',
      '(https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-memory-accesses) has additional',
      'information on reducing uncoalesced device memory accesses.',
    ]);
  });

  it('lets a first line reach 109 characters but continuation lines only 108', () => {
    const first = "All compute pipelines are under-utilized. Either this workload is very small or it doesn't issue enough warps";
    expect(first.length).toBe(109);
    expect(wrapNcu(`${first} per scheduler.`)[0]).toBe(first);
    // "…section for" is 97 characters; " uncoalesced" would make 109 on a continuation line
    const lines = wrapNcu(
      'The memory access pattern for shared loads might not be optimal and causes on average a 32.3 - way bank ' +
        'conflict across all 524288 shared load requests.This results in 16386106 bank conflicts,  which represent ' +
        '96.90% of the overall 16910394 wavefronts for shared loads. Check the Source Counters section for ' +
        'uncoalesced shared loads.',
    );
    expect(lines.slice(2)).toEqual([
      '96.90% of the overall 16910394 wavefronts for shared loads. Check the Source Counters section for',
      'uncoalesced shared loads.',
    ]);
  });

  it('cuts a word longer than the line hard, keeping the blank in front of it (ncu`s quirk)', () => {
    const url = 'https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#shared-memory-in-matrix-multiplication-c-ab';
    const lines = wrapNcu(
      'total 17301504 wavefronts). Check the L1 Wavefronts Shared Excessive table for the primary source locations. ' +
        `The CUDA Best Practices Guide (${url}) has an example on optimizing shared memory accesses.`,
    );
    expect(lines).toEqual([
      'total 17301504 wavefronts). Check the L1 Wavefronts Shared Excessive table for the primary source locations.',
      'The CUDA Best Practices Guide',
      ` (${url.slice(0, 108)}`,
      `${url.slice(108)}) has an example on optimizing shared memory accesses.`,
    ]);
    expect(lines[2]?.length).toBe(110);
  });

  it('returns short text unchanged', () => {
    expect(wrapNcu('A warning.')).toEqual(['A warning.']);
  });
});
