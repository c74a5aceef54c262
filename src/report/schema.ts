/**
 * Report JSON validated against schemas/report.schema.json (the same schema the TS types are
 * generated from), for what we write and for what users hand us back.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Report } from '../../types/report.schema.js';
import { UserError } from '../errors.js';
import { schemaPath } from '../paths.js';

let validator: ValidateFunction<Report> | null = null;

function getValidator(): ValidateFunction<Report> {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    validator = ajv.compile<Report>(JSON.parse(readFileSync(schemaPath('report.schema.json'), 'utf8')) as object);
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
