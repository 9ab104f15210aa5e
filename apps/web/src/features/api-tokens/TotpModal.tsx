import { totpField } from '@exchange/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CodeConfirmModal } from '../../components/CodeConfirmModal.tsx';

const schema = z.object({ totp_code: totpField });

interface Props {
  title: string;
  /** Performs the change with the code; throws the API error on failure. */
  onSubmit: (totpCode: string) => Promise<void>;
  onClose: () => void;
  /** Fields shown above the code (an API key's allowed IPs), owned by the caller. */
  children?: ReactNode;
}

/**
 * The two-factor code asked before every API-token change (docs/accounts.md#screens, #permissions), and before every change of the
 * login IP whitelist (issue 31): the code dialog in the API keys' wording.
 */
export function TotpModal({ title, onSubmit, onClose, children }: Props) {
  const { t } = useTranslation();
  return (
    <CodeConfirmModal
      title={title}
      code={{
        field: 'totp_code',
        label: t('identity.apiKeys.totpLabel'),
        hint: t('identity.apiKeys.totpHint'),
        testId: 'api-key-totp',
      }}
      check={(code) => schema.safeParse({ totp_code: code })}
      onSubmit={(data) => onSubmit(data.totp_code)}
      onClose={onClose}
      scope="apiKey"
      submit={{ label: t('identity.apiKeys.confirm') }}
    >
      {children}
    </CodeConfirmModal>
  );
}
