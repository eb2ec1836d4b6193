/**
 * A tiny, safe expression language for the config-driven form's `hideHandle` / `requiredHandle`
 * (SPEC §5 "hidden or required dynamically by an expression over other form values"). No `eval`,
 * no `new Function`: the text is tokenized and parsed into a small tree, which is evaluated against
 * the form values only.
 *
 *   expr    := or
 *   or      := and ( '||' and )*
 *   and     := unary ( '&&' unary )*
 *   unary   := '!' unary | compare
 *   compare := primary ( ( '==' | '!=' | '===' | '!==' | '>' | '>=' | '<' | '<=' ) primary )?
 *   primary := number | string | true | false | null | undefined | name ( '.' name | '[' number ']' )* | '(' expr ')'
 *
 * Names read the form values (`type`, `options.kind`, `images[0]`); a leading `form.`, `formData.`,
 * `model.` or `values.` is accepted as an alias of the values themselves. `==` compares a number
 * and a numeric string as equal (`type == 1` is true for `'1'`); `===` is strict. An empty array is
 * falsy. A syntax error throws `ExpressionError`.
 */

export class ExpressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpressionError';
  }
}

type Literal = string | number | boolean | null | undefined;

type Node =
  | { kind: 'lit'; value: Literal }
  | { kind: 'name'; path: Array<string | number> }
  | { kind: 'not'; arg: Node }
  | { kind: 'and' | 'or'; left: Node; right: Node }
  | { kind: 'cmp'; op: CmpOp; left: Node; right: Node };

type CmpOp = '==' | '!=' | '===' | '!==' | '>' | '>=' | '<' | '<=';

type Token =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'id'; v: string }
  | { t: 'op'; v: string }
  | { t: 'end' };

const OPERATORS = ['===', '!==', '==', '!=', '>=', '<=', '&&', '||', '>', '<', '!', '(', ')', '.', '[', ']'];

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let text = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && j + 1 < src.length) {
          j++;
          const e = src[j];
          text += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        } else text += src[j];
        j++;
      }
      if (j >= src.length) throw new ExpressionError(`unterminated string at ${i}`);
      out.push({ t: 'str', v: text });
      i = j + 1;
      continue;
    }
    const num = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
    // a leading '-' is part of a number only where a value may start
    const prev = out.at(-1);
    const valueMayStart = !prev || (prev.t === 'op' && prev.v !== ')' && prev.v !== ']');
    if (num && (c !== '-' || valueMayStart)) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_$\u00C0-\uFFFF][\w$\u00C0-\uFFFF]*/.exec(src.slice(i));
    if (id) {
      out.push({ t: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      out.push({ t: 'op', v: op });
      i += op.length;
      continue;
    }
    throw new ExpressionError(`unexpected '${c}' at ${i}`);
  }
  out.push({ t: 'end' });
  return out;
}

const KEYWORDS: Record<string, Literal> = { true: true, false: false, null: null, undefined: undefined };
const VALUE_ALIASES = new Set(['form', 'formData', 'model', 'values']);

function parse(src: string): Node {
  const tokens = tokenize(src);
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (v: string) => {
    const tok = tokens[pos];
    return tok.t === 'op' && tok.v === v;
  };
  const expectOp = (v: string) => {
    if (!isOp(v)) throw new ExpressionError(`expected '${v}' at token ${pos}`);
    pos++;
  };

  function primary(): Node {
    const tok = peek();
    if (tok.t === 'num' || tok.t === 'str') {
      pos++;
      return { kind: 'lit', value: tok.v };
    }
    if (tok.t === 'op' && tok.v === '(') {
      pos++;
      const inner = or();
      expectOp(')');
      return inner;
    }
    if (tok.t === 'id') {
      pos++;
      if (Object.prototype.hasOwnProperty.call(KEYWORDS, tok.v)) return { kind: 'lit', value: KEYWORDS[tok.v] };
      const path: Array<string | number> = [tok.v];
      for (;;) {
        if (isOp('.')) {
          pos++;
          const next = peek();
          if (next.t !== 'id') throw new ExpressionError(`expected a name after '.' at token ${pos}`);
          path.push(next.v);
          pos++;
        } else if (isOp('[')) {
          pos++;
          const index = peek();
          if (index.t !== 'num' && index.t !== 'str') throw new ExpressionError(`expected an index at token ${pos}`);
          path.push(index.v);
          pos++;
          expectOp(']');
        } else break;
      }
      return { kind: 'name', path };
    }
    throw new ExpressionError(tok.t === 'end' ? 'unexpected end of expression' : `unexpected token at ${pos}`);
  }

  function compare(): Node {
    const left = primary();
    const tok = peek();
    if (tok.t === 'op' && ['==', '!=', '===', '!==', '>', '>=', '<', '<='].includes(tok.v)) {
      pos++;
      return { kind: 'cmp', op: tok.v as CmpOp, left, right: primary() };
    }
    return left;
  }

  function unary(): Node {
    if (isOp('!')) {
      pos++;
      return { kind: 'not', arg: unary() };
    }
    return compare();
  }

  function and(): Node {
    let left = unary();
    while (isOp('&&')) {
      pos++;
      left = { kind: 'and', left, right: unary() };
    }
    return left;
  }

  function or(): Node {
    let left = and();
    while (isOp('||')) {
      pos++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  }

  if (!src.trim()) throw new ExpressionError('empty expression');
  const tree = or();
  if (peek().t !== 'end') throw new ExpressionError(`unexpected token at ${pos}`);
  return tree;
}

function lookup(values: Record<string, unknown>, path: Array<string | number>): unknown {
  let start = 0;
  if (path.length > 1 && typeof path[0] === 'string' && VALUE_ALIASES.has(path[0]) && !(path[0] in values)) start = 1;
  let current: unknown = values;
  for (let i = start; i < path.length; i++) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    const key = String(path[i]);
    // own data only: never walk into prototypes (`constructor`, `__proto__`)
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function looseEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if ((typeof a === 'number' && typeof b === 'string') || (typeof a === 'string' && typeof b === 'number')) {
    return String(a) === String(b);
  }
  if (typeof a === 'boolean' && (typeof b === 'number' || typeof b === 'string')) return String(Number(a)) === String(b);
  if (typeof b === 'boolean' && (typeof a === 'number' || typeof a === 'string')) return String(Number(b)) === String(a);
  return false;
}

function order(a: unknown, b: unknown): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  const na = typeof a === 'number' ? a : typeof a === 'string' && a.trim() !== '' ? Number(a) : NaN;
  const nb = typeof b === 'number' ? b : typeof b === 'string' && b.trim() !== '' ? Number(b) : NaN;
  if (!Number.isNaN(na) && !Number.isNaN(nb) && (typeof a === 'number' || typeof b === 'number')) return na - nb;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (!Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return null;
}

function evaluate(node: Node, values: Record<string, unknown>): unknown {
  switch (node.kind) {
    case 'lit':
      return node.value;
    case 'name':
      return lookup(values, node.path);
    case 'not':
      return !truthy(evaluate(node.arg, values));
    case 'and':
      return truthy(evaluate(node.left, values)) && truthy(evaluate(node.right, values));
    case 'or':
      return truthy(evaluate(node.left, values)) || truthy(evaluate(node.right, values));
    case 'cmp': {
      const a = evaluate(node.left, values);
      const b = evaluate(node.right, values);
      switch (node.op) {
        case '==':
          return looseEqual(a, b);
        case '!=':
          return !looseEqual(a, b);
        case '===':
          return a === b;
        case '!==':
          return a !== b;
        default: {
          const d = order(a, b);
          if (d === null) return false;
          return node.op === '>' ? d > 0 : node.op === '>=' ? d >= 0 : node.op === '<' ? d < 0 : d <= 0;
        }
      }
    }
  }
}

const cache = new Map<string, Node>();

/** Parses once (cached) and returns a predicate over the form values. */
export function compileExpression(src: string): (values: Record<string, unknown>) => boolean {
  let tree = cache.get(src);
  if (!tree) {
    tree = parse(src);
    if (cache.size > 500) cache.clear();
    cache.set(src, tree);
  }
  const compiled = tree;
  return (values) => truthy(evaluate(compiled, values ?? {}));
}

/** Evaluates `src` over `values`; a syntax error throws ExpressionError. */
export function evaluateExpression(src: string, values: Record<string, unknown>): boolean {
  return compileExpression(src)(values);
}
