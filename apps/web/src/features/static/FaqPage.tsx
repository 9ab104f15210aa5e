import { Accordion, Button, Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StaticKey } from '../../i18n/en/static.ts';

interface FaqItem {
  question: StaticKey;
  answer: StaticKey;
}

interface FaqTab {
  value: 'wallet' | 'general' | 'verification' | 'start';
  label: StaticKey;
  testId: string;
  items: readonly [FaqItem, ...FaqItem[]];
}

/** Tabs in the order of docs/accounts.md#public-pages; each tab's first item opens by default. */
const TABS: readonly FaqTab[] = [
  {
    value: 'wallet',
    label: 'faq.tab.wallet',
    testId: 'faq-tab-wallet',
    items: [
      { question: 'faq.wallet.q1', answer: 'faq.wallet.a1' },
      { question: 'faq.wallet.q2', answer: 'faq.wallet.a2' },
      { question: 'faq.wallet.q3', answer: 'faq.wallet.a3' },
      { question: 'faq.wallet.q4', answer: 'faq.wallet.a4' },
      { question: 'faq.wallet.q5', answer: 'faq.wallet.a5' },
    ],
  },
  {
    value: 'general',
    label: 'faq.tab.general',
    testId: 'faq-tab-general',
    items: [
      { question: 'faq.general.q1', answer: 'faq.general.a1' },
      { question: 'faq.general.q2', answer: 'faq.general.a2' },
      { question: 'faq.general.q3', answer: 'faq.general.a3' },
      { question: 'faq.general.q4', answer: 'faq.general.a4' },
    ],
  },
  {
    value: 'verification',
    label: 'faq.tab.verification',
    testId: 'faq-tab-verification',
    items: [
      { question: 'faq.verification.q1', answer: 'faq.verification.a1' },
      { question: 'faq.verification.q2', answer: 'faq.verification.a2' },
      { question: 'faq.verification.q3', answer: 'faq.verification.a3' },
      { question: 'faq.verification.q4', answer: 'faq.verification.a4' },
      { question: 'faq.verification.q5', answer: 'faq.verification.a5' },
    ],
  },
  {
    value: 'start',
    label: 'faq.tab.start',
    testId: 'faq-tab-start',
    items: [
      { question: 'faq.start.q1', answer: 'faq.start.a1' },
      { question: 'faq.start.q2', answer: 'faq.start.a2' },
      { question: 'faq.start.q3', answer: 'faq.start.a3' },
      { question: 'faq.start.q4', answer: 'faq.start.a4' },
      { question: 'faq.start.q5', answer: 'faq.start.a5' },
    ],
  },
];

const DEFAULT_TAB = TABS[0]!;

/** FAQ: tabs Wallet, General, Account Verification, Getting Started; one accordion item open at a time. */
export function FaqPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<FaqTab>(DEFAULT_TAB);
  const [open, setOpen] = useState<string | null>(DEFAULT_TAB.items[0].question);

  const onTabChange = (value: string | null) => {
    const next = TABS.find((candidate) => candidate.value === value);
    if (!next || next === tab) return;
    setTab(next);
    setOpen(next.items[0].question);
  };

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>{t('faq.title')}</Title>
          <Text c="dimmed">{t('faq.subtitle')}</Text>
        </Stack>
        <Tabs value={tab.value} onChange={onTabChange} keepMounted={false}>
          <Tabs.List>
            {TABS.map((entry) => (
              <Tabs.Tab key={entry.value} value={entry.value} data-testid={entry.testId}>
                {t(entry.label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {TABS.map((entry) => (
            <Tabs.Panel key={entry.value} value={entry.value} pt="md">
              <Accordion variant="separated" radius="md" value={open} onChange={setOpen}>
                {entry.items.map((item) => (
                  <Accordion.Item key={item.question} value={item.question}>
                    <Accordion.Control>{t(item.question)}</Accordion.Control>
                    <Accordion.Panel>
                      <Text>{t(item.answer)}</Text>
                    </Accordion.Panel>
                  </Accordion.Item>
                ))}
              </Accordion>
            </Tabs.Panel>
          ))}
        </Tabs>
        <Group gap="sm">
          <Text c="dimmed">{t('faq.more')}</Text>
          <Button component={Link} to="/contact" variant="light">
            {t('faq.contact')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
