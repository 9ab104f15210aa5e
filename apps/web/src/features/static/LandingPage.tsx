import { Badge, Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';
import type { StaticKey } from '../../i18n/en/static.ts';
import { FeatureGrid, StepGrid } from './marketing.tsx';

/** A 24×24 line icon drawn in the current text colour. */
const ICONS = {
  trading: <path d="M3 3v18h18M6 15l4-5 4 3 6-7" />,
  deposits: <path d="M7 20V4M3 8l4-4 4 4M17 4v16M13 16l4 4 4-4" />,
  beneficiaries: (
    <>
      <rect x={4} y={3} width={16} height={18} rx={2} />
      <circle cx={12} cy={10} r={3} />
      <path d="M8 17c1-2 2.4-3 4-3s3 1 4 3" />
    </>
  ),
  swaps: <path d="M4 8h14M14 4l4 4-4 4M20 16H6M10 12l-4 4 4 4" />,
  kyc: (
    <>
      <rect x={3} y={5} width={18} height={14} rx={2} />
      <circle cx={9} cy={11} r={2} />
      <path d="M6 16c.6-1.3 1.6-2 3-2s2.4.7 3 2M15 10h3M15 14h3" />
    </>
  ),
  card: (
    <>
      <rect x={2} y={5} width={20} height={14} rx={2} />
      <path d="M2 10h20M6 15h4" />
    </>
  ),
  security: (
    <>
      <rect x={5} y={11} width={14} height={10} rx={2} />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </>
  ),
} as const;

interface Feature {
  icon: keyof typeof ICONS;
  color: string;
  title: StaticKey;
  body: StaticKey;
}

/** The product areas of docs/accounts.md#overview and docs/trading.md#overview. */
const FEATURES: readonly Feature[] = [
  {
    icon: 'trading',
    color: 'blue',
    title: 'landing.feature.trading.title',
    body: 'landing.feature.trading.body',
  },
  {
    icon: 'deposits',
    color: 'teal',
    title: 'landing.feature.deposits.title',
    body: 'landing.feature.deposits.body',
  },
  {
    icon: 'beneficiaries',
    color: 'grape',
    title: 'landing.feature.beneficiaries.title',
    body: 'landing.feature.beneficiaries.body',
  },
  { icon: 'swaps', color: 'cyan', title: 'landing.feature.swaps.title', body: 'landing.feature.swaps.body' },
  { icon: 'kyc', color: 'orange', title: 'landing.feature.kyc.title', body: 'landing.feature.kyc.body' },
  { icon: 'card', color: 'indigo', title: 'landing.feature.card.title', body: 'landing.feature.card.body' },
  {
    icon: 'security',
    color: 'red',
    title: 'landing.feature.security.title',
    body: 'landing.feature.security.body',
  },
];

const STEPS = [1, 2, 3, 4] as const;
type StepNumber = (typeof STEPS)[number];
const stepTitle = (n: StepNumber): StaticKey => `landing.step${n}.title`;
const stepBody = (n: StepNumber): StaticKey => `landing.step${n}.body`;

/** Register/Login for visitors; a way into the app for signed-in users. */
function HeroActions() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  if (isLoggedIn(user)) {
    return (
      <Group gap="sm">
        <Button component={Link} to="/trade" size="md" data-testid="landing-trade">
          {t('landing.hero.trade')}
        </Button>
        <Button component={Link} to="/balance" size="md" variant="default">
          {t('landing.hero.balance')}
        </Button>
      </Group>
    );
  }
  return (
    <Group gap="sm">
      <Button component={Link} to="/register" size="md" data-testid="landing-register">
        {t('landing.hero.register')}
      </Button>
      <Button component={Link} to="/login" size="md" variant="default" data-testid="landing-login">
        {t('landing.hero.login')}
      </Button>
    </Group>
  );
}

function Hero() {
  const { t } = useTranslation();
  return (
    <Box
      py={{ base: 48, sm: 80 }}
      px="md"
      style={{
        background:
          'linear-gradient(135deg, var(--mantine-color-blue-light) 0%, var(--mantine-color-cyan-light) 100%)',
        borderRadius: 'var(--mantine-radius-lg)',
      }}
    >
      <Stack gap="lg" maw={760} mx="auto" align="center" ta="center">
        <Badge variant="light" size="lg">
          {t('landing.hero.badge')}
        </Badge>
        <Title order={1} fz={{ base: 32, sm: 46 }} lh={1.15}>
          {t('landing.hero.title')}
        </Title>
        <Text size="lg" c="dimmed">
          {t('landing.hero.subtitle')}
        </Text>
        <HeroActions />
      </Stack>
    </Box>
  );
}

function Features() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Stack gap={4} ta="center">
        <Title order={2}>{t('landing.features.title')}</Title>
        <Text c="dimmed">{t('landing.features.subtitle')}</Text>
      </Stack>
      <FeatureGrid items={FEATURES.map((f) => ({ ...f, icon: ICONS[f.icon] }))} />
    </Stack>
  );
}

function HowToStart() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Stack gap={4} ta="center">
        <Title order={2}>{t('landing.steps.title')}</Title>
        <Text c="dimmed">{t('landing.steps.subtitle')}</Text>
      </Stack>
      <StepGrid steps={STEPS.map((n) => ({ title: stepTitle(n), body: stepBody(n) }))} />
    </Stack>
  );
}

interface Teaser {
  title: StaticKey;
  body: StaticKey;
  button: StaticKey;
  to: string;
}

const TEASERS: readonly Teaser[] = [
  {
    title: 'landing.cta.card.title',
    body: 'landing.cta.card.body',
    button: 'landing.cta.card.button',
    to: '/european-account',
  },
  {
    title: 'landing.cta.faq.title',
    body: 'landing.cta.faq.body',
    button: 'landing.cta.faq.button',
    to: '/faq',
  },
];

function Teasers() {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      {TEASERS.map((teaser) => (
        <Card key={teaser.to} withBorder radius="md" padding="xl">
          <Stack gap="sm" h="100%" justify="space-between" align="flex-start">
            <Stack gap="xs">
              <Title order={3}>{t(teaser.title)}</Title>
              <Text c="dimmed">{t(teaser.body)}</Text>
            </Stack>
            <Button component={Link} to={teaser.to} variant="light">
              {t(teaser.button)}
            </Button>
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** Public home page: hero, product areas, how to start, and links to the card page and FAQ. */
export function LandingPage() {
  return (
    <Container size="lg" py="xl">
      <Stack gap={64}>
        <Hero />
        <Features />
        <HowToStart />
        <Teasers />
      </Stack>
    </Container>
  );
}
