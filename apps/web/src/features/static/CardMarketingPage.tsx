import {
  Anchor,
  Badge,
  Box,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StaticKey } from '../../i18n/en/static.ts';
import { FeatureGrid, StepGrid, Svg } from './marketing.tsx';

/** A line icon drawn in the current text colour. */
const CARD_ICON = (
  <>
    <rect x={2} y={5} width={20} height={14} rx={2} />
    <path d="M2 10h20M6 15h4" />
  </>
);

const CHAINS: readonly { color: string; label: StaticKey }[] = [
  { color: 'orange', label: 'cardPage.chain.bitcoin' },
  { color: 'indigo', label: 'cardPage.chain.ethereum' },
  { color: 'yellow', label: 'cardPage.chain.binance' },
  { color: 'teal', label: 'cardPage.chain.usdt' },
  { color: 'red', label: 'cardPage.chain.tron' },
];

const BENEFITS: readonly { icon: ReactNode; title: StaticKey; body: StaticKey }[] = [
  {
    icon: (
      <>
        <circle cx={12} cy={12} r={9} />
        <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
      </>
    ),
    title: 'cardPage.benefit.global.title',
    body: 'cardPage.benefit.global.body',
  },
  {
    icon: <path d="M17 6.5a6.5 6.5 0 1 0 0 11M4 10h9M4 14h9" />,
    title: 'cardPage.benefit.cost.title',
    body: 'cardPage.benefit.cost.body',
  },
  {
    icon: <path d="M13 2 4 14h7l-1 8 9-12h-7z" />,
    title: 'cardPage.benefit.fast.title',
    body: 'cardPage.benefit.fast.body',
  },
  {
    icon: <path d="M5 12l4 4 10-10" />,
    title: 'cardPage.benefit.simple.title',
    body: 'cardPage.benefit.simple.body',
  },
];

const STEPS = [1, 2, 3, 4] as const;
type StepNumber = (typeof STEPS)[number];
const stepTitle = (n: StepNumber): StaticKey => `cardPage.step${n}.title`;
const stepBody = (n: StepNumber): StaticKey => `cardPage.step${n}.body`;

/** Fixed card limits (docs/cards.md#constants). */
const LIMITS: readonly { name: StaticKey; value: StaticKey }[] = [
  { name: 'cardPage.limits.monthly', value: 'cardPage.limits.monthlyValue' },
  { name: 'cardPage.limits.payment', value: 'cardPage.limits.paymentValue' },
  { name: 'cardPage.limits.atmDaily', value: 'cardPage.limits.atmDailyValue' },
  { name: 'cardPage.limits.atmMin', value: 'cardPage.limits.atmMinValue' },
  { name: 'cardPage.limits.atmMax', value: 'cardPage.limits.atmMaxValue' },
];

const QUICK_LINKS: readonly { to: string; label: StaticKey }[] = [
  { to: '/', label: 'cardPage.footer.home' },
  { to: '/faq', label: 'cardPage.footer.faq' },
  { to: '/contact', label: 'cardPage.footer.contact' },
  { to: '/terms', label: 'cardPage.footer.terms' },
];

const COMMUNITY: readonly StaticKey[] = [
  'cardPage.footer.telegram',
  'cardPage.footer.x',
  'cardPage.footer.linkedin',
  'cardPage.footer.discord',
];

function Hero() {
  const { t } = useTranslation();
  return (
    <Box
      py={{ base: 48, sm: 72 }}
      px="md"
      style={{
        background:
          'linear-gradient(135deg, var(--mantine-color-indigo-light) 0%, var(--mantine-color-cyan-light) 100%)',
        borderRadius: 'var(--mantine-radius-lg)',
      }}
    >
      <Stack gap="lg" maw={720} mx="auto" align="center" ta="center">
        <ThemeIcon variant="light" size={72} radius="xl">
          <Svg size={40}>{CARD_ICON}</Svg>
        </ThemeIcon>
        <Title order={1} fz={{ base: 32, sm: 46 }} lh={1.15}>
          {t('cardPage.headline')}
        </Title>
        <Text size="lg" c="dimmed">
          {t('cardPage.subtitle')}
        </Text>
        <Group gap="sm" justify="center">
          <Button component={Link} to="/card" size="md" data-testid="card-get-started">
            {t('cardPage.getStarted')}
          </Button>
          <Button component={Link} to="/card" size="md" variant="default" data-testid="card-apply-now">
            {t('cardPage.applyNow')}
          </Button>
        </Group>
      </Stack>
    </Box>
  );
}

function Chains() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" align="center">
      <Title order={2} ta="center">
        {t('cardPage.chains.title')}
      </Title>
      <Group gap="sm" justify="center">
        {CHAINS.map((chain) => (
          <Badge key={chain.label} size="xl" variant="dot" color={chain.color} tt="none">
            {t(chain.label)}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

function Benefits() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Title order={2} ta="center">
        {t('cardPage.benefits.title')}
      </Title>
      <FeatureGrid items={BENEFITS} />
    </Stack>
  );
}

function Steps() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Title order={2} ta="center">
        {t('cardPage.steps.title')}
      </Title>
      <StepGrid steps={STEPS.map((n) => ({ title: stepTitle(n), body: stepBody(n) }))} />
    </Stack>
  );
}

function Limits() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="lg" maw={640} mx="auto" w="100%">
      <Title order={2} size="h3" mb="xs">
        {t('cardPage.limits.title')}
      </Title>
      <Text c="dimmed" size="sm" mb="sm">
        {t('cardPage.limits.caption')}
      </Text>
      <Table striped withRowBorders data-testid="card-limits">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('cardPage.limits.name')}</Table.Th>
            <Table.Th ta="right">{t('cardPage.limits.amount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {LIMITS.map((limit) => (
            <Table.Tr key={limit.name}>
              <Table.Td>{t(limit.name)}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {t(limit.value)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function Apps() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" align="center" ta="center">
      <Title order={2}>{t('cardPage.apps.title')}</Title>
      <Text c="dimmed">{t('cardPage.apps.body')}</Text>
      <Group gap="sm" justify="center">
        <Button disabled variant="default" size="md">
          {t('cardPage.apps.appStore')}
        </Button>
        <Button disabled variant="default" size="md">
          {t('cardPage.apps.googlePlay')}
        </Button>
      </Group>
    </Stack>
  );
}

function PageFooter() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-label={t('cardPage.footer.quickLinks')}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Stack gap="xs">
          <Text fw={700}>{t('cardPage.footer.quickLinks')}</Text>
          {QUICK_LINKS.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} size="sm">
              {t(link.label)}
            </Anchor>
          ))}
        </Stack>
        <Stack gap="xs">
          <Text fw={700}>{t('cardPage.footer.community')}</Text>
          <Group gap="xs">
            {COMMUNITY.map((label) => (
              <Badge key={label} variant="default" radius="sm" tt="none">
                {t(label)}
              </Badge>
            ))}
          </Group>
          <Text c="dimmed" size="sm">
            {t('cardPage.footer.communityNote')}
          </Text>
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}

/** Public card marketing page (docs/cards.md#screens "Public card marketing page", limits from #constants). */
export function CardMarketingPage() {
  return (
    <Container size="lg" py="xl">
      <Stack gap={56}>
        <Hero />
        <Chains />
        <Benefits />
        <Steps />
        <Limits />
        <Apps />
        <PageFooter />
      </Stack>
    </Container>
  );
}
