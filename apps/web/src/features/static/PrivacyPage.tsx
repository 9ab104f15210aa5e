import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StaticKey } from '../../i18n/en/static.ts';
import { LegalDocument } from './LegalDocument.tsx';

const SECTIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;
type SectionNumber = (typeof SECTIONS)[number];
const CONTACT_SECTION: SectionNumber = 13;

/** Privacy policy (docs/accounts.md#public-pages privacy facts, GDPR structure); the last section links to the contact form. */
export function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <LegalDocument
      id="privacy"
      title="privacy.title"
      intro="privacy.intro"
      sections={SECTIONS}
      sectionTitle={(n: SectionNumber): StaticKey => `privacy.s${n}.title`}
      sectionBody={(n: SectionNumber): StaticKey => `privacy.s${n}.body`}
      extra={(n) =>
        n === CONTACT_SECTION && (
          <div>
            <Button component={Link} to="/contact" variant="light">
              {t('privacy.contactLink')}
            </Button>
          </div>
        )
      }
    />
  );
}
