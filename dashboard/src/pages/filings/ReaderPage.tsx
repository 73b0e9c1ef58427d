// The filing reader: a filing's primary document as the service renders it (HTML it has already
// sanitized: no script, style attribute or address that would load anything, which this page's
// CSP would refuse anyway), Markdown or text, with its sections to jump to. `?format=` picks the
// rendering, `#item_7` opens on a section, and `?highlight=<text>` marks and scrolls to the first
// place the text appears, so that a cited value can open the reader on its source sentence.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { graphql } from '../../gql';
import type { RenderFormat } from '../../gql/graphql.ts';

const FilingReaderQuery = graphql(`
  query FilingReader($accessionNumber: String!, $format: RenderFormat!) {
    filing(accessionNumber: $accessionNumber) {
      accessionNumber
      cik
      form
      filedAt
      reportDate
      primaryDocDescription
      entity {
        name
        tickers
      }
      render(format: $format) {
        format
        fileName
        sections {
          key
          title
          anchor
        }
        content
        sourceUrl
        size
      }
    }
  }
`);

const formats: { value: RenderFormat; label: string }[] = [
  { value: 'html', label: 'HTML' },
  { value: 'markdown', label: 'Markdown' },
  { value: 'text', label: 'Text' },
];

/** Markdown or text cut at its section headings, so that each section can be jumped to by its key. */
function textSegments(content: string, format: RenderFormat, keys: string[]): { key: string | null; text: string }[] {
  const heading = format === 'markdown' ? /^## .*$/gm : /^.+\n=+$/gm;
  const starts = [...content.matchAll(heading)].map((m) => m.index ?? 0);
  const segments = [{ key: null as string | null, text: content.slice(0, starts[0] ?? content.length) }];
  starts.forEach((start, i) => segments.push({ key: keys[i] ?? null, text: content.slice(start, starts[i + 1] ?? content.length) }));
  return segments.filter((s) => s.text.length > 0);
}

/** The first place `text` appears in the element's text (spaces of any kind alike), as a Range. */
function findText(container: HTMLElement, text: string): Range | null {
  const wanted = text.replace(/\s+/g, ' ').trim();
  if (!wanted) return null;
  const nodes: { node: Text; start: number }[] = [];
  let all = '';
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push({ node: node as Text, start: all.length });
    all += (node.textContent ?? '').replace(/\s/g, ' ');
  }
  const at = all.indexOf(wanted);
  if (at < 0) return null;
  const locate = (offset: number) => {
    let found = nodes[0]!;
    for (const n of nodes) if (n.start <= offset) found = n;
    return { node: found.node, offset: offset - found.start };
  };
  const range = document.createRange();
  const start = locate(at);
  const end = locate(at + wanted.length - 1);
  range.setStart(start.node, start.offset);
  range.setEnd(end.node, end.offset + 1);
  return range;
}

const highlightName = 'reader-highlight';

export function ReaderPage() {
  const { accessionNumber = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const format = (formats.find((f) => f.value === params.get('format'))?.value ?? 'html') as RenderFormat;
  const highlight = params.get('highlight') ?? '';
  const [result, refetch] = useQuery({ query: FilingReaderQuery, variables: { accessionNumber, format } });
  const filing = result.data?.filing;
  const render = filing?.render;
  const documentRef = useRef<HTMLDivElement>(null);
  const [marked, setMarked] = useState<'none' | 'found' | 'missing'>('none');
  useTitle(filing ? `${filing.entity.name} ${filing.form}` : `Filing ${accessionNumber}`);

  const segments = useMemo(() => (render && format !== 'html' ? textSegments(render.content, format, render.sections.filter((s) => s.anchor).map((s) => s.key)) : []), [render, format]);

  // Once the document is shown: mark the text asked for, else go to the section in the address.
  useEffect(() => {
    const container = documentRef.current;
    if (!container || !render) return;
    const highlights = (CSS as unknown as { highlights?: Map<string, unknown> }).highlights;
    highlights?.delete(highlightName);
    if (highlight) {
      const range = findText(container, highlight);
      setMarked(range ? 'found' : 'missing');
      if (range) {
        const Highlight = (window as unknown as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
        if (Highlight && highlights) highlights.set(highlightName, new Highlight(range));
        range.startContainer.parentElement?.scrollIntoView({ block: 'center' });
        return;
      }
    } else setMarked('none');
    const hash = decodeURIComponent(location.hash.slice(1));
    if (hash) document.getElementById(hash)?.scrollIntoView({ block: 'start' });
  }, [render, highlight, location.hash]);

  const pickFormat = (value: RenderFormat) => {
    const next = new URLSearchParams(params);
    if (value === 'html') next.delete('format');
    else next.set('format', value);
    setParams(next);
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/filings">Filings</Link>
      </p>
      <h1>{filing ? `${filing.entity.name}: ${filing.form}` : `Filing ${accessionNumber}`}</h1>
      {result.fetching && !result.data ? <Loading what="the filing" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} context="Reading this filing" /> : null}
      {result.data && !filing ? <p className="state state-empty">No filing {accessionNumber} is in the filings this service has indexed.</p> : null}
      {filing ? (
        <>
          <dl className="pairs reader-meta">
            <dt>Accession number</dt>
            <dd>
              <code>{filing.accessionNumber}</code>
            </dd>
            <dt>Company</dt>
            <dd>
              {filing.entity.name} (CIK {filing.cik}
              {filing.entity.tickers.length ? `, ${filing.entity.tickers.join(', ')}` : ''})
            </dd>
            <dt>Filed</dt>
            <dd>{filing.filedAt ?? 'not stated'}</dd>
            <dt>Period of report</dt>
            <dd>{filing.reportDate ?? 'not stated'}</dd>
            {render ? (
              <>
                <dt>Document</dt>
                <dd>
                  <a href={render.sourceUrl} rel="noopener noreferrer" target="_blank">
                    {render.fileName} at the SEC
                  </a>{' '}
                  ({Math.round(render.size / 1024).toLocaleString('en-US')} KB)
                </dd>
              </>
            ) : null}
          </dl>
          {!render && !result.fetching ? (
            <p className="state state-empty">The document of this filing is not stored: it was not ingested, or was ingested before documents were kept. Ingest it again to read it here.</p>
          ) : null}
        </>
      ) : null}
      {render ? (
        <div className="reader">
          <nav className="reader-nav" aria-label="Sections">
            <fieldset className="reader-formats">
              <legend>Format</legend>
              {formats.map((f) => (
                <label key={f.value}>
                  <input type="radio" name="reader-format" value={f.value} checked={format === f.value} onChange={() => pickFormat(f.value)} /> {f.label}
                </label>
              ))}
            </fieldset>
            <h2 className="reader-nav-title">Sections</h2>
            <ol>
              {render.sections.map((s) => (
                <li key={s.key}>{s.anchor ? <a href={`#${s.anchor}`}>{s.title}</a> : <span>{s.title}</span>}</li>
              ))}
            </ol>
          </nav>
          <div className="reader-body">
            {highlight ? (
              <p className="reader-highlight-note" role="status">
                {marked === 'found' ? `Marked the first place “${highlight}” appears.` : marked === 'missing' ? `“${highlight}” does not appear in this rendering.` : ''}
              </p>
            ) : null}
            {result.fetching ? <Loading what={`the ${format} rendering`} /> : null}
            <div ref={documentRef} className={`reader-document reader-${format}`} role="region" aria-label="Filing document" tabIndex={0}>
              {format === 'html' ? (
                <div dangerouslySetInnerHTML={{ __html: render.content }} />
              ) : (
                segments.map((s, i) => (
                  <pre key={`${s.key ?? 'start'}-${i}`} id={s.key ?? undefined}>
                    {s.text}
                  </pre>
                ))
              )}
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}
