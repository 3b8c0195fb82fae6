// Request validation. Bodies are strict (no type coercion, unknown keys rejected); query strings
// and params are coerced from text. Failures become one 400 that names every bad field.
import { Ajv, type ErrorObject, type SchemaValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { lengthProblem } from '../../contract/text-limits.ts';
import { Invalid } from '../errors.ts';

/**
 * `maxGraphemes: n` (contract/text-limits.ts): at most n characters as a person counts them, and
 * at most CODE_POINTS_PER_CHARACTER code points for each. JSON Schema's maxLength counts code
 * points, so an emoji with its skin tone, a flag or a letter typed with its accent apart would count
 * as two or more.
 */
const maxGraphemes: SchemaValidateFunction = (limit: number, data: string) => {
  const problem = lengthProblem(data, limit);
  if (problem === null) return true;
  maxGraphemes.errors = [{ keyword: 'maxGraphemes', message: problem, params: { limit } }];
  return false;
};

function withTextLimits(ajv: Ajv): Ajv {
  return ajv.addKeyword({
    keyword: 'maxGraphemes',
    type: 'string',
    schemaType: 'number',
    errors: true,
    validate: maxGraphemes,
  });
}

const strict = withTextLimits(
  addFormats(
    new Ajv({
      allErrors: true,
      coerceTypes: false,
      removeAdditional: false,
      useDefaults: true,
      strict: false,
    }),
  ),
);
const coercing = withTextLimits(
  addFormats(
    new Ajv({
      allErrors: true,
      coerceTypes: true,
      removeAdditional: false,
      useDefaults: true,
      strict: false,
    }),
  ),
);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strict : coercing;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

function fieldOf(error: ErrorObject): string {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required')
    return base ? `${base}.${error.params.missingProperty}` : String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') {
    const extra = String(error.params.additionalProperty);
    return base ? `${base}.${extra}` : extra;
  }
  return base || '(body)';
}

function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type':
      return `must be ${error.params.type === 'integer' ? 'a whole number' : `of type ${error.params.type}`}`;
    case 'minLength':
      return error.params.limit === 1
        ? 'must not be empty'
        : `must be at least ${error.params.limit} characters`;
    case 'maxLength':
      return `must be at most ${error.params.limit} characters`;
    case 'maxGraphemes':
      return error.message ?? `must be at most ${error.params.limit} characters`;
    case 'minimum':
      return `must be at least ${error.params.limit}`;
    case 'maximum':
      return `must be at most ${error.params.limit}`;
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => (v === '' ? '""' : String(v))).join(', ')}`;
    case 'pattern':
    case 'format':
      return 'has an invalid format';
    default:
      return error.message ?? 'is invalid';
  }
}

/** Turns ajv errors into the contract's 400: `error` reads as a sentence, `details` maps fields. */
export function invalidFromValidation(errors: ErrorObject[], part: string): Invalid {
  const details: Record<string, string> = {};
  for (const e of errors) {
    const field = fieldOf(e);
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    details[field] ??= messageOf(e);
  }
  if (Object.keys(details).length === 0) details[part] = 'is invalid';
  const [field, message] = Object.entries(details)[0]!;
  const summary = field === '(body)' ? `Request body ${message}` : `${field} ${message}`;
  return new Invalid(summary, details);
}
