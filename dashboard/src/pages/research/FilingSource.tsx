// The filing a figure was read from, as a link: its reader page when the service holds the
// document (marking the sentence or figure, when one is given), else the SEC's copy, saying why.
import { Link } from 'react-router';
import { filingPath } from './research.ts';

interface FilingSourceProps {
  accessionNumber: string | null;
  citationUrl: string | null;
  /** whether the service holds the document; null when the answer does not say */
  documentHeld: boolean | null;
  /** the text the reader marks: a sentence, or a figure as the document prints it */
  sentence?: string | null;
  title?: string;
  /** in a table cell, where the table says what the mark means: the SEC's copy is marked ↗, its reason read aloud only */
  compact?: boolean;
  children: string;
}

export function FilingSource({ accessionNumber, citationUrl, documentHeld, sentence, title, compact, children }: FilingSourceProps) {
  if (accessionNumber && documentHeld)
    return (
      <Link to={`${filingPath(accessionNumber)}${sentence ? `?highlight=${encodeURIComponent(sentence)}` : ''}`} title={title}>
        {children}
      </Link>
    );
  if (!citationUrl) return <>{children}</>;
  const where = documentHeld === false ? 'on SEC.gov: the service does not hold this document' : 'on SEC.gov';
  return (
    <>
      <a href={citationUrl} rel="noopener noreferrer" target="_blank" title={title}>
        {children}
      </a>
      {compact ? (
        <>
          <span aria-hidden="true"> ↗</span>
          <span className="visually-hidden">{` (${where})`}</span>
        </>
      ) : (
        <span className="research-sub muted">{where}</span>
      )}
    </>
  );
}
