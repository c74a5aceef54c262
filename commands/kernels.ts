import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Flags } from '@oclif/core';
import { WarpsightCommand } from '../src/cli/base.js';
import { UserError, escapeControl } from '../src/errors.js';

interface KernelEntry {
  file: string;
  name: string;
  kind: 'kernel' | 'program';
  description: string;
}

export default class Kernels extends WarpsightCommand {
  static override summary = 'List the bundled kernels (and those of another folder)';
  static override enableJsonFlag = true;
  static override flags = {
    dir: Flags.string({ description: 'folder of kernel files (default: the bundled kernels/)' }),
  };

  async run(): Promise<{ kernels: KernelEntry[] }> {
    const { flags } = await this.parse(Kernels);
    const { packageRoot } = await import('../src/paths.js');
    const { loadDefinitions } = await import('../src/kernel/load.js');
    const dir = flags.dir ?? join(packageRoot(), 'kernels');
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
    } catch {
      throw new UserError(`--dir ${dir}: not a readable folder`, 2);
    }
    const out: KernelEntry[] = [];
    for (const f of files) {
      const path = join(dir, f);
      for (const d of await loadDefinitions(path))
        out.push({ file: relative(process.cwd(), path) || path, name: d.name, kind: d.kind, description: d.description ?? '' });
    }
    if (!this.jsonEnabled()) {
      const Table = (await import('cli-table3')).default;
      const plain = !process.stdout.isTTY;
      const { fitColumns } = await import('../src/cli/fit.js');
      // the description column takes what the terminal has left (120 columns off a terminal) and wraps;
      // names and descriptions come from kernel files: control characters are shown, not obeyed
      const rows = out.map((k) => [k.file, k.name, k.kind, k.description].map(escapeControl));
      const colWidths = fitColumns(['file', 'name', 'kind', 'description'], rows, process.stdout.columns ?? 120);
      const t = new Table({ head: ['file', 'name', 'kind', 'description'], colWidths, wordWrap: true, ...(plain ? { style: { head: [], border: [] } } : {}) });
      for (const r of rows) t.push(r);
      this.log(t.toString());
      this.log(`${out.length} kernels in ${files.length} files. Profile one with: warpsight profile <file> -k <name>`);
    }
    return { kernels: out };
  }
}
