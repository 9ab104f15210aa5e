import type { StaticKey } from '../../i18n/en/static.ts';
import { LegalDocument } from './LegalDocument.tsx';

const SECTIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18] as const;
type SectionNumber = (typeof SECTIONS)[number];

/** Terms of use (docs/accounts.md#public-pages): eighteen numbered sections with a table of contents. */
export function TermsPage() {
  return (
    <LegalDocument
      id="terms"
      title="terms.title"
      intro="terms.intro"
      sections={SECTIONS}
      sectionTitle={(n: SectionNumber): StaticKey => `terms.s${n}.title`}
      sectionBody={(n: SectionNumber): StaticKey => `terms.s${n}.body`}
    />
  );
}
