import { UserError } from '../errors.js';
import { callerLoc } from './sourceLoc.js';
import type { ElemType, PtrType, ScalarKind, ScalarType, Space, Storage, ValueType, VecType, AccessProperty } from './types.js';

const scalars = new Map<ScalarKind, ScalarType>();
export function scalar(kind: ScalarKind): ScalarType {
  let t = scalars.get(kind);
  if (!t) {
    t = Object.freeze({ tag: 'scalar', kind });
    scalars.set(kind, t);
  }
  return t;
}

export const pred = scalar('pred');
export const i8 = scalar('i8');
export const u8 = scalar('u8');
export const i16 = scalar('i16');
export const u16 = scalar('u16');
export const i32 = scalar('i32');
export const u32 = scalar('u32');
export const i64 = scalar('i64');
export const u64 = scalar('u64');
export const f32 = scalar('f32');
export const f64 = scalar('f64');

export function vec(elem: ScalarType, n: 2 | 4): VecType {
  // a kernel file is not type-checked when it runs (tsx strips types): vec(f32, 3) would build a
  // 12-byte access no GPU has (int2/float4 and kin: 64- and 128-bit LDG/STG)
  if (n !== 2 && n !== 4) {
    const at = callerLoc();
    throw new UserError(`${at.file}:${at.line}: vec(${typeof elem === 'object' && elem !== null && 'kind' in elem ? elem.kind : String(elem)}, ${String(n)}): a vector has 2 or 4 elements (64- or 128-bit accesses, like int2 or float4)`);
  }
  if (typeof elem !== 'object' || elem === null || elem.tag !== 'scalar' || elem.kind === 'pred') {
    const at = callerLoc();
    throw new UserError(`${at.file}:${at.line}: vec(…, ${n}): the element type must be a scalar type other than pred, like f32 or u32`);
  }
  return Object.freeze({ tag: 'vec', elem, n });
}

export function ptr(space: Space, elem: ElemType, property?: AccessProperty): PtrType {
  if (property) checkProperty(property);
  return Object.freeze(property ? { tag: 'ptr', space, elem, property } : { tag: 'ptr', space, elem });
}

export function scalarBytes(k: ScalarKind): number {
  switch (k) {
    case 'pred':
    case 'i8':
    case 'u8':
      return 1;
    case 'i16':
    case 'u16':
      return 2;
    case 'i32':
    case 'u32':
    case 'f32':
      return 4;
    default:
      return 8;
  }
}

export function elemBytes(t: ElemType): number {
  return t.tag === 'scalar' ? scalarBytes(t.kind) : scalarBytes(t.elem.kind) * t.n;
}

export function storageOf(t: ValueType): Storage {
  if (t.tag === 'ptr') return 'f64';
  switch (t.kind) {
    case 'f32':
      return 'f32';
    case 'f64':
      return 'f64';
    case 'i64':
    case 'u64':
      return 'i64';
    default:
      return 'i32';
  }
}

export function isFloat(t: ValueType): boolean {
  return t.tag === 'scalar' && (t.kind === 'f32' || t.kind === 'f64');
}
export function isInt(t: ValueType): boolean {
  return t.tag === 'scalar' && !isFloat(t) && t.kind !== 'pred';
}
export function isSigned(t: ValueType): boolean {
  return t.tag === 'scalar' && (t.kind === 'i8' || t.kind === 'i16' || t.kind === 'i32' || t.kind === 'i64');
}
export function is64(t: ValueType): boolean {
  return t.tag === 'scalar' && (t.kind === 'i64' || t.kind === 'u64');
}

export function sameType(a: ValueType, b: ValueType): boolean {
  if (a.tag !== b.tag) return false;
  if (a.tag === 'scalar' && b.tag === 'scalar') return a.kind === b.kind;
  if (a.tag === 'ptr' && b.tag === 'ptr') return a.space === b.space && typeName(a.elem) === typeName(b.elem);
  return false;
}

export function typeName(t: ValueType | ElemType): string {
  if (t.tag === 'scalar') return t.kind;
  if (t.tag === 'vec') return `${t.elem.kind}x${t.n}`;
  const prop = t.property && t.property.kind !== 'global' ? `<${t.property.kind}>` : '';
  return `ptr<${t.space}, ${typeName(t.elem)}>${prop}`;
}

/**
 * cuda::access_property's values as its constructors check them: an interleaved fraction in (0, 1],
 * a range whose primary bytes fit in its total (a kernel file is not type-checked when it runs)
 */
function checkProperty(p: AccessProperty): void {
  const bad = (what: string): never => {
    const at = callerLoc();
    throw new UserError(`${at.file}:${at.line}: access property '${String(p.kind)}': ${what}`);
  };
  const kinds = ['global', 'normal', 'streaming', 'persisting', 'shared', 'interleaved', 'range'];
  if (typeof p !== 'object' || p === null || !kinds.includes(p.kind)) bad(`expected one of ${kinds.join(', ')}`);
  if (p.kind === 'interleaved' && (typeof p.fraction !== 'number' || !(p.fraction > 0 && p.fraction <= 1))) bad(`fraction ${String(p.fraction)} is not in (0, 1]`);
  if (p.kind === 'range') {
    const whole = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
    const base = p.base as unknown;
    const paramBase = typeof base === 'object' && base !== null && typeof (base as { param?: unknown }).param === 'string';
    if (!paramBase && !whole(base)) bad(`base ${String(base)} must be a whole byte address or a pointer parameter (k.accessRange(p, ...))`);
    if (!whole(p.primaryBytes) || !whole(p.totalBytes) || p.primaryBytes > p.totalBytes) bad(`primaryBytes ${String(p.primaryBytes)} and totalBytes ${String(p.totalBytes)} must be whole numbers with primaryBytes <= totalBytes`);
  }
}
