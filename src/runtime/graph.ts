/**
 * CUDA graphs as data: nodes holding work and their dependencies, built explicitly or by stream
 * capture; instantiation checks (cycles, graph-allocation pointers used where they are not valid) and
 * the DOT text cudaGraphDebugDotPrint writes.
 */
import { HostFault } from '../errors.js';
import type { DevicePtr } from '../memory/deviceMemory.js';
import type { WorkSpec } from './types.js';

export type NodeType = 'kernel' | 'memcpy' | 'memset' | 'host' | 'eventRecord' | 'eventWait' | 'memAlloc' | 'memFree' | 'graph' | 'empty';

export class GraphNode {
  readonly kind = 'graphNode';
  readonly deps: GraphNode[] = [];
  constructor(
    readonly graph: Graph,
    /** index in its graph: the node id DOT prints */
    readonly index: number,
    readonly type: NodeType,
    /** the work it does; a child-graph node holds its graph instead */
    public work: WorkSpec,
    /** where the program made it */
    readonly where: string,
    readonly child: Graph | null = null,
  ) {}
}

let nextGraphId = 0;

export class Graph {
  readonly kind = 'graph';
  readonly id = nextGraphId++;
  readonly nodes: GraphNode[] = [];
  destroyed = false;

  add(type: NodeType, work: WorkSpec, deps: readonly GraphNode[], where: string, child: Graph | null = null): GraphNode {
    for (const d of deps)
      if (d.graph !== this) throw new HostFault(`${where}: a dependency is node ${d.index} of another graph; dependencies must be nodes of the same graph (cudaErrorInvalidValue)`);
    const n = new GraphNode(this, this.nodes.length, type, work, where, child);
    n.deps.push(...deps);
    this.nodes.push(n);
    return n;
  }

  /** cudaGraphAddDependencies(from → to) */
  addDependency(from: GraphNode, to: GraphNode, where: string): void {
    if (from.graph !== this || to.graph !== this) throw new HostFault(`${where}: both nodes of a dependency must belong to this graph (cudaErrorInvalidValue)`);
    if (!to.deps.includes(from)) to.deps.push(from);
  }
}

/** the node label CUDA prints: kernel name, or the node type in capitals */
function label(n: GraphNode): string {
  switch (n.type) {
    case 'kernel':
      return n.work.kind === 'kernel' ? n.work.def.name : n.work.kind === 'system' ? n.work.name : 'KERNEL';
    case 'memcpy':
      return 'MEMCPY';
    case 'memset':
      return 'MEMSET';
    case 'host':
      return 'HOST';
    case 'eventRecord':
      return 'EVENT_RECORD';
    case 'eventWait':
      return 'EVENT_WAIT';
    case 'memAlloc':
      return 'MEM_ALLOC';
    case 'memFree':
      return 'MEM_FREE';
    case 'graph':
      return 'CHILD_GRAPH';
    case 'empty':
      return 'EMPTY';
  }
}

/**
 * DOT as cudaGraphDebugDotPrint(g, path, 0) writes it (measured, runtime-system.md 3.6): a cluster
 * per graph, kernel nodes bold octagons, others solid rectangles, one edge per dependency
 */
export function graphDot(g: Graph): string {
  const out: string[] = ['digraph dot {'];
  const emit = (graph: Graph, indent: string): void => {
    const name = (n: GraphNode): string => `"graph_${graph.id}_node_${n.index}"`;
    out.push(`${indent}subgraph cluster_${graph.id} {`);
    out.push(`${indent}label="graph_${graph.id}" graph[style="dashed"];`);
    for (const n of graph.nodes) {
      const kernel = n.type === 'kernel';
      out.push(`${indent}${name(n)}[style="${kernel ? 'bold' : 'solid'}" shape="${kernel ? 'octagon' : 'rectangle'}" label="${n.index}\\n${label(n)}\\n"];`);
      if (n.child) emit(n.child, `${indent}  `);
    }
    for (const n of graph.nodes) for (const d of n.deps) out.push(`${indent}${name(d)} -> ${name(n)};`);
    out.push(`${indent}}`);
  };
  emit(g, '');
  out.push('}');
  return `${out.join('\n')}\n`;
}

/** nodes in an order where every node follows its dependencies; a cycle is an error naming it */
export function topoOrder(g: Graph, where: string): GraphNode[] {
  const state = new Map<GraphNode, 1 | 2>();
  const order: GraphNode[] = [];
  const visit = (n: GraphNode, path: GraphNode[]): void => {
    const s = state.get(n);
    if (s === 2) return;
    if (s === 1) {
      const cyc = [...path.slice(path.indexOf(n)), n].map((x) => `${x.index} (${label(x)})`).join(' -> ');
      throw new HostFault(`${where}: the graph has a cycle: ${cyc}; node ${n.index} was made at ${n.where} (cudaGraphInstantiate: cudaErrorInvalidValue)`);
    }
    state.set(n, 1);
    for (const d of n.deps) visit(d, [...path, n]);
    state.set(n, 2);
    order.push(n);
  };
  for (const n of g.nodes) visit(n, []);
  return order;
}

/** device pointers a node's work reads or writes */
function pointersOf(w: WorkSpec): DevicePtr[] {
  switch (w.kind) {
    case 'kernel':
      return (Object.values(w.args) as unknown[]).filter((v): v is DevicePtr => typeof v === 'object' && v !== null && (v as DevicePtr).kind === 'devptr');
    case 'memcpy':
      return [w.dst, w.src].filter((v): v is DevicePtr => v.kind === 'devptr');
    case 'memset':
      return [w.dst];
    default:
      return [];
  }
}

/**
 * graph-allocation rules (PG "graph memory nodes"): a node may use the pointer of an alloc node only
 * if it is downstream of the alloc and upstream of the free that frees it
 */
export function checkAllocUse(g: Graph, where: string): void {
  const reach = new Map<GraphNode, Set<GraphNode>>();
  // ancestors of every node
  const ancestors = (n: GraphNode): Set<GraphNode> => {
    let s = reach.get(n);
    if (s) return s;
    s = new Set();
    for (const d of n.deps) {
      s.add(d);
      for (const a of ancestors(d)) s.add(a);
    }
    reach.set(n, s);
    return s;
  };
  const allocs = g.nodes.filter((n) => n.type === 'memAlloc');
  for (const a of allocs) {
    if (a.work.kind !== 'alloc') continue;
    const alloc = a.work.ptr.allocation;
    const free = g.nodes.find((n) => n.work.kind === 'free' && n.work.ptr.allocation === alloc);
    for (const n of g.nodes) {
      if (n === a || n === free) continue;
      if (!pointersOf(n.work).some((p) => p.allocation === alloc)) continue;
      if (!ancestors(n).has(a))
        throw new HostFault(`${where}: node ${n.index} (${label(n)}, made at ${n.where}) uses the allocation of node ${a.index} (MEM_ALLOC, made at ${a.where}) but is not downstream of it; add a dependency on the alloc node (cudaErrorInvalidValue)`);
      if (free && !ancestors(free).has(n))
        throw new HostFault(`${where}: node ${n.index} (${label(n)}, made at ${n.where}) uses the allocation that node ${free.index} (MEM_FREE, made at ${free.where}) frees but is not upstream of the free; make the free depend on it (cudaErrorInvalidValue)`);
    }
  }
}
