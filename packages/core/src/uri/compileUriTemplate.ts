/** A compiled RFC 6570 URI template that recognizes the URIs it expands to. */
export interface UriTemplateMatcher {
  readonly template: string;
  /** Variable names in the order they appear. */
  readonly variables: readonly string[];
  /** The variables of a URI this template produces (exploded ones as arrays), or undefined if it does not match. */
  match(uri: string): Record<string, string | string[]> | undefined;
}

interface Operator {
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  /** What one value may contain when matching (values produced by expansion never contain the separators). */
  readonly chars: string;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, chars: '[^/?#,]' },
  '+': { first: '', sep: ',', named: false, chars: '[^?#,]' },
  '#': { first: '#', sep: ',', named: false, chars: '[^,]' },
  '.': { first: '.', sep: '.', named: false, chars: '[^/?#.]' },
  '/': { first: '/', sep: '/', named: false, chars: '[^/?#]' },
  ';': { first: ';', sep: ';', named: true, chars: '[^/?#;]' },
  '?': { first: '?', sep: '&', named: true, chars: '[^&#]' },
  '&': { first: '&', sep: '&', named: true, chars: '[^&#]' },
};

const VARNAME = /^[A-Za-z0-9_.%]+$/;

/**
 * Compiles a URI template (RFC 6570, levels 1-3 plus the explode modifier for path-style
 * operators) into a matcher, once. Throws an Error saying what is wrong with the template.
 */
export function compileUriTemplate(template: string): UriTemplateMatcher {
  const variables: string[] = [];
  const groups: { name: string; explode: boolean; sep: string }[] = [];
  let pattern = '';
  let last = 0;
  for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
    pattern += escape(template.slice(last, m.index));
    last = m.index! + m[0].length;
    const body = m[1];
    const opChar = /^[+#./;?&]/.test(body) ? body[0] : '';
    const op = OPERATORS[opChar];
    const specs = body.slice(opChar.length).split(',');
    const parts: string[] = [];
    specs.forEach((spec, i) => {
      const explode = spec.endsWith('*');
      const name = spec.replace(/\*$/, '').replace(/:\d+$/, '');
      if (!VARNAME.test(name)) throw new Error(`'{${body}}' has an invalid variable name '${spec}'`);
      if (variables.includes(name)) throw new Error(`the variable '${name}' appears twice`);
      if (explode && op.named) throw new Error(`'{${body}}': the explode modifier is supported only for {x*}, {/x*} and {.x*}`);
      variables.push(name);
      groups.push({ name, explode, sep: op.sep });
      const lead = i === 0 ? op.first : op.sep;
      if (op.named) {
        const lead2 = opChar === '?' || opChar === '&' ? '[?&]' : escape(lead);
        parts.push(`(?:${lead2}${escape(name)}(?:=(${op.chars}*))?)?`);
      } else if (explode) {
        parts.push(`${i === 0 ? '' : escape(lead)}(${op.chars}*(?:${escape(op.sep)}${op.chars}*)*)`);
      } else {
        parts.push(`${i === 0 ? '' : `(?:${escape(lead)}`}(${op.chars}+)${i === 0 ? '' : ')?'}`);
      }
    });
    pattern += op.named ? parts.join('') : op.first ? `(?:${escape(op.first)}${parts.join('')})?` : parts.join('');
  }
  if (/[{}]/.test(template.slice(last))) throw new Error('it has an unbalanced brace');
  pattern += escape(template.slice(last));
  const regex = new RegExp(`^${pattern}$`);

  return Object.freeze({
    template,
    variables: Object.freeze(variables),
    match(uri: string) {
      const found = regex.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string | string[]> = {};
      try {
        groups.forEach((g, i) => {
          const raw = found[i + 1];
          if (raw === undefined) return;
          values[g.name] = g.explode
            ? raw
                .split(g.sep)
                .filter((v, j) => j > 0 || v !== '')
                .map(decodeURIComponent)
            : decodeURIComponent(raw);
        });
      } catch {
        return undefined; // malformed percent-encoding: not a URI this template produces
      }
      return values;
    },
  });
}

/** Whether a string is a URI template rather than a plain URI. */
export function isUriTemplate(uri: string): boolean {
  return /[{}]/.test(uri);
}

function escape(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
