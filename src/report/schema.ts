/**
 * Report JSON validated against schemas/report.schema.json (the same schema the TS types are
 * generated from), for what we write and for what users hand us back.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';
import type { Report } from '../../types/report.schema.js';
import { UserError } from '../errors.js';
import { schemaPath } from '../paths.js';

/** ajv's options; scripts/gen-validator.mjs compiles the build's validator with the same */
const VALIDATOR_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true } as const;

let validator: ValidateFunction<Report> | null = null;

const require = createRequire(import.meta.url);

/**
 * The validator compiled at build time (types/report.validate.cjs, beside the types: dist/types in a
 * build), if it was made from the schema as it is now; compiling the schema here costs ~0.4 s a process
 */
function prebuilt(schemaText: string): ValidateFunction<Report> | null {
  const file = fileURLToPath(new URL('../../types/report.validate.cjs', import.meta.url));
  if (!existsSync(file)) return null;
  const mod = require(file) as { default?: ValidateFunction<Report>; schemaSha256?: string };
  const sha = createHash('sha256').update(schemaText).digest('hex');
  return mod.schemaSha256 === sha && typeof mod.default === 'function' ? mod.default : null;
}

function getValidator(): ValidateFunction<Report> {
  if (!validator) {
    const text = readFileSync(schemaPath('report.schema.json'), 'utf8');
    validator = prebuilt(text);
    if (!validator) {
      const { Ajv } = require('ajv') as { Ajv: typeof AjvClass };
      validator = new Ajv(VALIDATOR_OPTIONS).compile<Report>(JSON.parse(text) as object);
    }
  }
  return validator;
}

/** the value as a Report, or a UserError naming the JSON path of the first problems */
export function checkReport(value: unknown, what: string): Report {
  const v = getValidator();
  if (v(value)) return value;
  const errs = (v.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  throw new UserError(`${what} is not a Warpsight report: ${errs.join('; ')}`);
}

/** the report as JSON text: stable key order from construction, 2-space indent, trailing newline */
export function reportJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export function readReport(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`report file not found: ${file}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file}: invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return checkReport(value, file);
}
