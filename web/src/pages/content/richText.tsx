/**
 * A course's rich text: a small Markdown subset turned into React elements, never HTML, so what the
 * operator writes cannot run in a merchant's console. Blank lines separate paragraphs; `# ` / `## `
 * start headings, `- ` list items; `**bold**` and `[text](https://link)` inline (links: http(s) or a
 * path of this site only).
 */
import { Typography } from 'antd';
import type { ReactNode } from 'react';

export type Block = { kind: 'h1' | 'h2' | 'p'; text: string } | { kind: 'ul'; items: string[] };

/** The blocks of a text, in order. */
export function blocks(text: string): Block[] {
  const out: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ kind: 'p', text: para.join('\n') });
    para = [];
  };
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = /^(#{1,2})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      out.push({ kind: heading[1].length === 1 ? 'h1' : 'h2', text: heading[2] });
    } else if (item) {
      flush();
      const last = out[out.length - 1];
      if (last?.kind === 'ul') last.items.push(item[1]);
      else out.push({ kind: 'ul', items: [item[1]] });
    } else para.push(line);
  }
  flush();
  return out;
}

/** Links a course may open: http(s) or this site's own paths. */
export function safeHref(href: string): string | null {
  const h = href.trim();
  if (/^https?:\/\/\S+$/i.test(h)) return h;
  if (h.startsWith('/') && !h.startsWith('//') && !/\s/.test(h)) return h;
  return null;
}

/** `**bold**` and `[text](link)` in one line of text. */
export function inline(text: string, key = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let at = 0;
  let n = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    if (m[1] !== undefined) out.push(<strong key={`${key}-${n++}`}>{m[1]}</strong>);
    else {
      const href = safeHref(m[3]);
      out.push(
        href ? (
          <a key={`${key}-${n++}`} href={href} target="_blank" rel="noopener noreferrer">
            {m[2]}
          </a>
        ) : (
          m[2]
        ),
      );
    }
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export default function RichText({ text, testId }: { text: string; testId?: string }) {
  return (
    <Typography data-testid={testId}>
      {blocks(text).map((b, i) => {
        if (b.kind === 'ul')
          return (
            <ul key={i}>
              {b.items.map((item, j) => (
                <li key={j}>{inline(item, `${i}-${j}`)}</li>
              ))}
            </ul>
          );
        if (b.kind === 'h1') return <Typography.Title key={i} level={4}>{inline(b.text, `${i}`)}</Typography.Title>;
        if (b.kind === 'h2') return <Typography.Title key={i} level={5}>{inline(b.text, `${i}`)}</Typography.Title>;
        return (
          <Typography.Paragraph key={i} style={{ whiteSpace: 'pre-line' }}>
            {inline(b.text, `${i}`)}
          </Typography.Paragraph>
        );
      })}
    </Typography>
  );
}
