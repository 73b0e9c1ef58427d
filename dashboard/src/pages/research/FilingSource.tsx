// The filing a figure was read from, as a link: its reader page when the service holds the
// document (marking the sentence, when one is given), else the SEC's copy, saying why.
import { Link } from 'react-router';
import { filingPath } from './research.ts';

interface FilingSourceProps {
  accessionNumber: string | null;
  citationUrl: string | null;
  /** whether the service holds the document; null when the answer does not say */
  documentHeld: boolean | null;
  sentence?: string;
  children: string;
}

export function FilingSource({ accessionNumber, citationUrl, documentHeld, sentence, children }: FilingSourceProps) {
  if (accessionNumber && documentHeld) return <Link to={`${filingPath(accessionNumber)}${sentence ? `?highlight=${encodeURIComponent(sentence)}` : ''}`}>{children}</Link>;
  if (!citationUrl) return <>{children}</>;
  return (
    <>
      <a href={citationUrl} rel="noopener noreferrer" target="_blank">
        {children}
      </a>
      <span className="research-sub muted">{documentHeld === false ? 'on SEC.gov: the service does not hold this document' : 'on SEC.gov'}</span>
    </>
  );
}
