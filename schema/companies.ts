// A company's filings held, counted by form (resolvers/companies.ts): what the dashboard's company
// page reads to say what the service holds of it.
import { filingCountsByForm, type FormCount } from '../resolvers/companies.ts';
import { builder } from './builder.ts';
import { EntityRef } from './edgar.ts';

const FormCountRef = builder.objectRef<FormCount>('FilingFormCount').implement({
  description: 'How many filings of one form the service holds of a company, and of how many it holds the document.',
  fields: (t) => ({
    form: t.exposeString('form'),
    count: t.exposeInt('count', { description: 'Filings of this form held (index entries, with or without their document)' }),
    documentsIngested: t.exposeInt('documentsIngested', { description: 'Of those, the filings whose own document was ingested (their sections and items are read)' }),
  }),
});

builder.objectField(EntityRef, 'filingCounts', (t) =>
  t.field({
    type: [FormCountRef],
    description: 'The filings held of this entity, counted by form, the most numerous first.',
    resolve: (entity, _args, ctx) => filingCountsByForm(ctx.prisma, entity.cik),
  }),
);
