/**
 * The JSONPath filters a tenant may write, `[?(@.productId == 'P-1' && @.quantity >= 2)]`, read by
 * a small grammar of their own instead of JavaScript: jsonpath-plus's script evaluators have
 * carried remote-code-execution bugs (docs/dependencies.md), so no tenant text is ever run as script.
 *
 *   expression := term (('&&' | '||') term)*        (&& binds tighter than ||)
 *   term       := '(' expression ')' | operand (comparison operand)?
 *   operand    := item | 'string' | "string" | number | true | false | null
 *   item       := @ ('.' name | '[' ('string' | integer) ']')*
 *   comparison := == | === | != | !== | < | <= | > | >=
 *
 * `==` and `===` compare without coercion (so do `!=` and `!==`); `<`, `>`, `<=`, `>=` compare
 * numbers with numbers and strings with strings, and are false otherwise. An operand alone is true
 * when its value is truthy. Anything else (calls, `@root`, `@parent`, arithmetic) is refused.
 */

type Literal = string | number | boolean | null;
type Operand = { item: (string | number)[] } | { literal: Literal };
type Comparison = '==' | '===' | '!=' | '!==' | '<' | '<=' | '>' | '>=';
export type FilterExpression =
  | { operand: Operand }
  | { compare: Comparison; left: Operand; right: Operand }
  | { logical: '&&' | '||'; left: FilterExpression; right: FilterExpression };

export class FilterSyntaxError extends Error {}

/** Longer filters, or deeper parentheses, are refused rather than parsed: the parser recurses. */
const MAX_FILTER_LENGTH = 1000;
const MAX_DEPTH = 16;

// jsonpath-plus hands a filter over with `@` already rewritten to `_$_v`; both spellings are read.
const TOKEN =
  /\s*(?:(_\$_v|@)(?![\w$])|(===|!==|==|!=|<=|>=|&&|\|\||[<>()[\].])|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_][\w-]*))/y;

type Token = { kind: 'item' | 'symbol' | 'string' | 'number' | 'name'; text: string };

function tokenize(source: string): Token[] {
  const text = source.trimEnd();
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) throw new FilterSyntaxError(`unexpected "${text.slice(at, at + 12).trim()}"`);
    const [, item, symbol, single, double, number, name] = match;
    if (item !== undefined) tokens.push({ kind: 'item', text: item });
    else if (symbol !== undefined) tokens.push({ kind: 'symbol', text: symbol });
    else if (single !== undefined || double !== undefined) {
      // jsonpath-plus rewrites `@` before it hands a filter over, inside strings too: such a string
      // would never match what it says.
      if ((single ?? double)!.includes('@')) throw new FilterSyntaxError('a string in a filter may not hold @');
      tokens.push({ kind: 'string', text: unescape((single ?? double)!) });
    } else if (number !== undefined) tokens.push({ kind: 'number', text: number });
    else tokens.push({ kind: 'name', text: name! });
  }
  return tokens;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

const COMPARISONS = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=']);

class Parser {
  private position = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): FilterExpression {
    const expression = this.expression();
    if (this.position < this.tokens.length)
      throw new FilterSyntaxError(`unexpected "${this.tokens[this.position]!.text}"`);
    return expression;
  }

  private expression(): FilterExpression {
    let left = this.conjunction();
    while (this.accept('||')) left = { logical: '||', left, right: this.conjunction() };
    return left;
  }

  private conjunction(): FilterExpression {
    let left = this.term();
    while (this.accept('&&')) left = { logical: '&&', left, right: this.term() };
    return left;
  }

  private term(): FilterExpression {
    if (this.accept('(')) {
      if (++this.depth > MAX_DEPTH) throw new FilterSyntaxError(`parentheses nest deeper than ${MAX_DEPTH}`);
      const inner = this.expression();
      this.expect(')');
      this.depth--;
      return inner;
    }
    const left = this.operand();
    const next = this.tokens[this.position];
    if (next?.kind === 'symbol' && COMPARISONS.has(next.text)) {
      this.position++;
      return { compare: next.text as Comparison, left, right: this.operand() };
    }
    return { operand: left };
  }

  private operand(): Operand {
    const token = this.tokens[this.position++];
    if (!token) throw new FilterSyntaxError('the filter ends too early');
    switch (token.kind) {
      case 'item':
        return { item: this.members() };
      case 'string':
        return { literal: token.text };
      case 'number':
        return { literal: Number(token.text) };
      case 'name':
        if (token.text === 'true' || token.text === 'false') return { literal: token.text === 'true' };
        if (token.text === 'null') return { literal: null };
        throw new FilterSyntaxError(
          `"${token.text}" is not a value: compare @ fields with strings, numbers, true, false or null`,
        );
      default:
        throw new FilterSyntaxError(`unexpected "${token.text}"`);
    }
  }

  /** `.name` and `['name']` / `[0]` after `@`. */
  private members(): (string | number)[] {
    const keys: (string | number)[] = [];
    for (;;) {
      if (this.accept('.')) {
        const name = this.tokens[this.position++];
        if (name?.kind !== 'name') throw new FilterSyntaxError('a field name must follow "@."');
        keys.push(name.text);
      } else if (this.accept('[')) {
        const key = this.tokens[this.position++];
        if (key?.kind === 'string') keys.push(key.text);
        else if (key?.kind === 'number' && Number.isInteger(Number(key.text))) keys.push(Number(key.text));
        else throw new FilterSyntaxError('"[" after @ takes a quoted name or an index');
        this.expect(']');
      } else {
        return keys;
      }
    }
  }

  private accept(symbol: string): boolean {
    const token = this.tokens[this.position];
    if (token?.kind !== 'symbol' || token.text !== symbol) return false;
    this.position++;
    return true;
  }

  private expect(symbol: string): void {
    if (!this.accept(symbol)) throw new FilterSyntaxError(`"${symbol}" expected`);
  }
}

export function parseFilter(source: string): FilterExpression {
  if (source.length > MAX_FILTER_LENGTH) throw new FilterSyntaxError(`longer than ${MAX_FILTER_LENGTH} characters`);
  return new Parser(tokenize(source)).parse();
}

export function evaluateFilter(expression: FilterExpression, item: unknown): boolean {
  if ('logical' in expression) {
    return expression.logical === '&&'
      ? evaluateFilter(expression.left, item) && evaluateFilter(expression.right, item)
      : evaluateFilter(expression.left, item) || evaluateFilter(expression.right, item);
  }
  if ('operand' in expression) return Boolean(valueOf(expression.operand, item));
  return compare(expression.compare, valueOf(expression.left, item), valueOf(expression.right, item));
}

function valueOf(operand: Operand, item: unknown): unknown {
  if ('literal' in operand) return operand.literal;
  let value = item;
  for (const key of operand.item) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function compare(comparison: Comparison, left: unknown, right: unknown): boolean {
  switch (comparison) {
    case '==':
    case '===':
      return left === right;
    case '!=':
    case '!==':
      return left !== right;
  }
  const comparable =
    (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [a, b] = [left as number | string, right as number | string];
  return comparison === '<' ? a < b : comparison === '<=' ? a <= b : comparison === '>' ? a > b : a >= b;
}
