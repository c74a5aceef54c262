import { describe, expect, it } from 'vitest';
import { withDerivedMetrics } from '../../src/metrics/derived.js';
import { applyRules } from '../../src/metrics/rules/index.js';
import { sectionById } from '../../src/metrics/sections.js';
import { kernelHeaderLine, renderTerminal, sectionLines } from '../../src/report/terminal.js';
import { H200_DEVICE, reportOf, stride32Kernel } from './terminalFixtures.js';

/** the kernel with the rules Warpsight derives for it */
function analysedKernel() {
  const kernel = stride32Kernel();
  // the profile pipeline stores derived metrics in the report; renderers only read
  kernel.metrics = withDerivedMetrics(kernel.metrics);
  kernel.rules = applyRules({ metrics: kernel.metrics, instructions: kernel.instructions, launch: kernel.launch, device: H200_DEVICE });
  return kernel;
}

/** the lines of one section in a rendered report, up to and including its closing blank line */
function sectionBlock(text: string, name: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop(); // the final newline
  const start = lines.indexOf(`    Section: ${name}`);
  if (start < 0) return [];
  const end = lines.findIndex(
    (l, i) =>
      i > start &&
      (l.startsWith('    Section: ') || l.startsWith('    Source Hot Spots') || (l.startsWith('  ') && !l.startsWith('    '))),
  );
  return lines.slice(start, end < 0 ? undefined : end);
}

// copied verbatim from ../shared/groundtruth/h200/details_g_ld_u32_stride32.txt
const NCU_LAUNCH_STATISTICS = `    Section: Launch Statistics
    -------------------------------- --------------- ---------------
    Metric Name                          Metric Unit    Metric Value
    -------------------------------- --------------- ---------------
    Block Size                                                   256
    Cluster Scheduling Policy                           PolicySpread
    Cluster Size                                                   0
    Function Cache Configuration                     CachePreferNone
    Grid Size                                                 16,384
    Registers Per Thread             register/thread              16
    Shared Memory Configuration Size           Kbyte           32.77
    Driver Shared Memory Per Block       Kbyte/block            1.02
    Dynamic Shared Memory Per Block       byte/block               0
    Static Shared Memory Per Block        byte/block               0
    # SMs                                         SM             132
    Stack Size                                                 1,024
    Threads                                   thread       4,194,304
    # TPCs                                                        66
    Enabled TPC IDs                                              all
    Uses Green Context                                             0
    Waves Per SM                                               15.52
    -------------------------------- --------------- ---------------
`;

const NCU_MEMORY_WORKLOAD_ANALYSIS = `    Section: Memory Workload Analysis
    -------------------------------------- ----------- ------------
    Metric Name                            Metric Unit Metric Value
    -------------------------------------- ----------- ------------
    Local Memory Spilling Requests                                0
    Local Memory Spilling Request Overhead           %            0
    Memory Throughput                          Tbyte/s         3.77
    Mem Busy                                         %        70.47
    Max Bandwidth                                    %        78.28
    L1/TEX Hit Rate                                  %            0
    L2 Persisting Size                           Mbyte        11.80
    L2 Compression Success Rate                      %            0
    L2 Compression Ratio                             %            0
    L2 Compression Input Sectors                sector      525,136
    L2 Hit Rate                                      %         9.52
    Mem Pipes Busy                                   %         4.06
    -------------------------------------- ----------- ------------
`;

const NCU_SOURCE_COUNTERS_RULE = `    OPT   Est. Speedup: 73.9%                                                                                           
          This kernel has uncoalesced global accesses resulting in a total of 3670016 excessive sectors (78% of the     
          total 4718592 sectors). Check the L2 Theoretical Sectors Global Excessive table for the primary source        
          locations. The CUDA Programming Guide                                                                         
          (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-memory-accesses) has additional      
          information on reducing uncoalesced device memory accesses.                                                   
`;

const NCU_OCCUPANCY_RULE = `    OPT   Est. Speedup: 15.68%                                                                                          
          The difference between calculated theoretical (100.0%) and measured achieved occupancy (84.3%) can be the     
          result of warp scheduling overheads or workload imbalances during the kernel execution. Load imbalances can   
          occur between warps within a block as well as across blocks of the same kernel. See the CUDA Best Practices   
          Guide (https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#occupancy) for more details on     
          optimizing occupancy.                                                                                         
`;

describe('renderTerminal: sections of g_ld_u32_stride32 as real ncu printed them', () => {
  const text = renderTerminal(reportOf(analysedKernel()));

  it('prints the kernel line', () => {
    expect(text.split('\n')[0]).toBe(
      '  g_ld_u32_stride32(const unsigned int *, unsigned int *) (16384, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0',
    );
  });

  it('renders Launch Statistics line for line', () => {
    expect(sectionBlock(text, 'Launch Statistics').join('\n')).toBe(NCU_LAUNCH_STATISTICS);
    expect(text).toContain('    Registers Per Thread             register/thread              16\n');
    expect(text).toContain('    Driver Shared Memory Per Block       Kbyte/block            1.02\n');
  });

  it('renders Memory Workload Analysis line for line (CC 9.0 picks the lrc__ compression metrics)', () => {
    expect(sectionBlock(text, 'Memory Workload Analysis').join('\n')).toBe(NCU_MEMORY_WORKLOAD_ANALYSIS);
  });

  it('renders the UncoalescedGlobalAccess rule under Source Counters, wrapped as ncu wraps it', () => {
    const block = sectionBlock(text, 'Source Counters').join('\n');
    expect(block.endsWith(NCU_SOURCE_COUNTERS_RULE)).toBe(true);
  });

  it('renders the AchievedOccupancy rule with its global speedup bounded by IssueSlotUtilization', () => {
    expect(sectionBlock(text, 'Occupancy').join('\n').endsWith(NCU_OCCUPANCY_RULE)).toBe(true);
  });

  it('separates two rule results of one section with ncu`s dashed line', () => {
    const block = sectionBlock(text, 'Warp State Statistics');
    const sep = block.indexOf(`    ----- ${'-'.repeat(110)}`);
    expect(sep).toBeGreaterThan(0);
    expect(block[sep + 1]?.startsWith('    INF   Check the Warp Stall Sampling (All Samples) table')).toBe(true);
  });

  it('keeps ncu`s section order', () => {
    const order = text
      .split('\n')
      .filter((l) => l.startsWith('    Section: '))
      .map((l) => l.slice('    Section: '.length));
    expect(order).toEqual([
      'GPU Speed Of Light Throughput',
      'Memory Workload Analysis',
      'Memory Workload Analysis Tables',
      'Scheduler Statistics',
      'Warp State Statistics',
      'Launch Statistics',
      'Occupancy',
      // the fixture holds one of its metrics (SM active cycles), so it shows with that one row
      'GPU and Memory Workload Distribution',
      'Source Counters',
    ]);
  });

  it('is plain, deterministic text', () => {
    expect(text).not.toMatch(/\x1b\[/);
    expect(renderTerminal(reportOf(analysedKernel()))).toBe(text);
  });
});

describe('renderTerminal options', () => {
  it('prints only the requested sections', () => {
    const text = renderTerminal(reportOf(analysedKernel()), { sections: ['LaunchStats'] });
    const sections = text.split('\n').filter((l) => l.startsWith('    Section: '));
    expect(sections).toEqual(['    Section: Launch Statistics']);
    expect(text).not.toContain('Source Hot Spots');
  });

  it('prints --metrics in ncu`s temporary section, alone unless sections are asked for too', () => {
    const report = reportOf(analysedKernel());
    const text = renderTerminal(report, { metrics: ['launch__registers_per_thread', 'gpu__time_duration.sum'] });
    expect(text.split('\n').slice(1, 8)).toEqual([
      '    Section: Command line profiler metrics',
      '    ---------------------------- --------------- ------------',
      '    Metric Name                      Metric Unit Metric Value',
      '    ---------------------------- --------------- ------------',
      '    gpu__time_duration.sum                    us        75.84',
      '    launch__registers_per_thread register/thread           16',
      '    ---------------------------- --------------- ------------',
    ]);
    expect(text).not.toContain('Section: Launch Statistics');
    const both = renderTerminal(report, { metrics: ['gpu__time_duration.sum'], sections: ['Occupancy'] });
    expect(both.split('\n').filter((l) => l.startsWith('    Section: '))).toEqual([
      '    Section: Command line profiler metrics',
      '    Section: Occupancy',
    ]);
  });

  it('falls back to the report`s section list', () => {
    const report = reportOf(analysedKernel());
    report.options.sections = ['Occupancy'];
    const sections = renderTerminal(report).split('\n').filter((l) => l.startsWith('    Section: '));
    expect(sections).toEqual(['    Section: Occupancy']);
  });

  it('adds the hidden metrics with details "all", sorted by metric id like ncu', () => {
    const text = renderTerminal(reportOf(analysedKernel()), { sections: ['LaunchStats'], details: 'all' });
    const block = sectionBlock(text, 'Launch Statistics');
    // ../shared/groundtruth/h200/details_all_g_ld_u32_stride32.txt
    expect(block.slice(-4)).toEqual([
      '    Theoretical Occupancy                          %             100',
      '    Achieved Occupancy                             %           84.32',
      '    -------------------------------- --------------- ---------------',
      '',
    ]);
  });

  it('prints the memory tables as grids with body details', () => {
    const text = renderTerminal(reportOf(analysedKernel()), { sections: ['MemoryWorkloadAnalysis_Tables'], details: 'body' });
    const lines = text.split('\n');
    expect(lines).toContain('    Memory Tables');
    expect(lines).toContain('    Table Name : L1/TEX Cache');
    const globalLoad = lines.find((l) => l.startsWith('    Global Load'));
    expect(globalLoad).toBeDefined();
    // requests, sectors, sectors/request, hit rate
    expect(globalLoad).toMatch(/131,072 +4,194,304 +32 +0 %/);
  });

  it('prints a rule whose section has no table under the rule`s section id', () => {
    const kernel = stride32Kernel({
      metrics: {},
      instructions: [],
      rules: [{ id: 'Custom', section: 'NvlinkTables', type: 'WRN', message: 'A warning.' }],
    });
    const text = renderTerminal(reportOf(kernel), { hotSpots: 0 });
    expect(text.split('\n').slice(1)).toEqual(['    Section: NvlinkTables', `    WRN   A warning.${' '.repeat(100)}`, '', '']);
  });

  it('leaves out a section with no metrics and no rules', () => {
    const lines = sectionLines(sectionById('SpeedOfLight')!, { metrics: {} }, []);
    expect(lines).toEqual([]);
  });

  it('uses the launch`s stream and the device`s compute capability in the kernel line', () => {
    const kernel = stride32Kernel();
    kernel.launch = { ...kernel.launch, stream: 13 };
    expect(kernelHeaderLine(kernel, { cc: '8.0' })).toContain('Context 1, Stream 13, Device 0, CC 8.0');
  });
});

describe('source hot spots (Warpsight extra)', () => {
  const text = renderTerminal(reportOf(analysedKernel()));
  const lines = text.split('\n');
  const title = lines.indexOf('    Source Hot Spots (Warpsight): kernels/g_ld_u32_stride32.ts');

  it('follows the ncu sections', () => {
    expect(title).toBeGreaterThan(lines.indexOf('    Section: Source Counters'));
  });

  it('puts the line with excessive sectors first, with its source text', () => {
    const header = lines[title + 2] ?? '';
    expect(header).toMatch(/^ {4}Line +Instructions +Threads\/Inst +Sectors +Ideal Sectors +Excessive Sectors +Opcodes Source$/);
    const first = lines[title + 4] ?? '';
    expect(first).toMatch(/^ {4}12 +131,072 +32 +4,194,304 +524,288 +3,670,016 +LDG\.E +const v = src\.at\(idx\)\.load\(\);$/);
    expect(lines[title + 5]).toMatch(/^ {4}13 +131,072 +32 +524,288 +524,288 +0 +STG\.E +out\.at\(i\)\.store\(v\);$/);
  });

  it('can be switched off', () => {
    expect(renderTerminal(reportOf(analysedKernel()), { hotSpots: 0 })).not.toContain('Source Hot Spots');
  });
});
