import { ActionIcon, Anchor, Box, Burger, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isLoggedIn, useCurrentUser, useLogout } from '../api/user.ts';
import { useThemeToggle } from './theme.ts';
import { toast } from './toast.ts';

function ThemeSwitch() {
  const { dark, toggle } = useThemeToggle();
  const { t } = useTranslation();
  return (
    <ActionIcon
      variant="default"
      size="lg"
      onClick={toggle}
      aria-label={t('nav.toggleTheme')}
      data-testid="theme-toggle"
    >
      {dark ? '☀' : '☾'}
    </ActionIcon>
  );
}

function Wrap({ vertical, children }: { vertical: boolean; children: ReactNode }) {
  // The mobile menu lines every item up on the left, links and menu buttons alike.
  return vertical ? (
    <Stack gap="xs" align="flex-start">
      {children}
    </Stack>
  ) : (
    <Group gap="md">{children}</Group>
  );
}

function NavLinks({ onNavigate, vertical }: { onNavigate: () => void; vertical: boolean }) {
  const { t } = useTranslation();
  const { data: user, isPending } = useCurrentUser();
  const logout = useLogout();
  // Until the session is known, show neither the visitor's links nor the user's: no Login/Register flash.
  if (isPending) return null;
  if (!isLoggedIn(user)) {
    return (
      <Wrap vertical={vertical}>
        <Anchor component={Link} to="/trade" onClick={onNavigate}>
          {t('nav.trade')}
        </Anchor>
        <Anchor component={Link} to="/contact" onClick={onNavigate}>
          {t('nav.contact')}
        </Anchor>
        <Button component={Link} to="/login" variant="default" onClick={onNavigate}>
          {t('nav.login')}
        </Button>
        <Button component={Link} to="/register" onClick={onNavigate}>
          {t('nav.register')}
        </Button>
      </Wrap>
    );
  }

  const onLogout = async () => {
    onNavigate();
    try {
      await logout('/');
      toast.success(t('logout.success'));
    } catch {
      toast.error(t('logout.failed'));
    }
  };

  return (
    <Wrap vertical={vertical}>
      <Anchor component={Link} to="/trade" onClick={onNavigate}>
        {t('nav.trade')}
      </Anchor>
      <Anchor component={Link} to="/card" onClick={onNavigate}>
        {t('nav.card')}
      </Anchor>
      <Anchor component={Link} to="/view_statement" onClick={onNavigate} data-testid="nav-statement">
        {t('nav.statement')}
      </Anchor>
      <NavMenu
        testId="nav-wallet"
        label={t('nav.wallet')}
        onNavigate={onNavigate}
        items={[
          ['/balance', t('nav.balance')],
          ['/deposit_withdraw', t('nav.depositWithdraw')],
          ['/swap', t('nav.swap')],
          // Mass payouts are for business accounts (the page itself says when verification is still missing).
          ...(user.account_type === 'business' ? ([['/payouts', t('nav.payouts')]] as const) : []),
        ]}
      />
      <NavMenu
        testId="nav-history"
        label={t('nav.history')}
        onNavigate={onNavigate}
        items={[
          ['/history/account', t('nav.transactionHistory')],
          ['/history/orders', t('nav.orderHistory')],
        ]}
      />
      <Anchor component={Link} to="/contact" onClick={onNavigate}>
        {t('nav.contact')}
      </Anchor>
      {user.role !== 'member' && (
        <Anchor component={Link} to="/admin" onClick={onNavigate} data-testid="nav-admin">
          {t('nav.admin')}
        </Anchor>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" data-testid="user-menu">
            {user.email}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to="/settings" onClick={onNavigate}>
            {user.email}
          </Menu.Item>
          <Menu.Item color="red" onClick={onLogout}>
            {t('nav.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Wrap>
  );
}

/** Gap between the header's bottom edge and the toasts. */
const TOAST_GAP_PX = 8;

/**
 * Keeps `--app-toast-top` (global.css) just under the header's bottom edge as seen in the window: as the header
 * grows (the mobile menu, a wrap) and as the page scrolls it away, so the toasts never cover it.
 */
function useToastsBelow(header: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = header.current;
    if (!element) return;
    const root = document.documentElement;
    let frame = 0;
    const place = () => {
      frame = 0;
      const bottom = Math.max(0, element.getBoundingClientRect().bottom);
      root.style.setProperty('--app-toast-top', `${Math.round(bottom) + TOAST_GAP_PX}px`);
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(place);
    };
    place();
    const resized = new ResizeObserver(schedule);
    resized.observe(element);
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      resized.disconnect();
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame !== 0) cancelAnimationFrame(frame);
      root.style.removeProperty('--app-toast-top');
    };
  }, [header]);
}

/** Site header: logo, navigation for visitors or users, theme switch, and a mobile menu toggle. */
export function Header() {
  const { t } = useTranslation();
  const [open, { toggle, close }] = useDisclosure(false);
  const ref = useRef<HTMLElement>(null);
  useToastsBelow(ref);
  return (
    <Box
      ref={ref}
      component="header"
      px="md"
      py="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between" wrap="nowrap">
        <Anchor component={Link} to="/" underline="never" onClick={close}>
          <Text fw={800} size="xl" variant="gradient" gradient={{ from: 'blue', to: 'cyan' }}>
            {t('app.name')}
          </Text>
        </Anchor>
        <Group gap="sm" wrap="nowrap">
          <Box visibleFrom="sm">
            <NavLinks onNavigate={close} vertical={false} />
          </Box>
          <ThemeSwitch />
          <Burger opened={open} onClick={toggle} hiddenFrom="sm" aria-label={t('nav.toggleMenu')} />
        </Group>
      </Group>
      {open && (
        <Box hiddenFrom="sm" pt="md" data-testid="mobile-menu">
          <NavLinks onNavigate={close} vertical />
        </Box>
      )}
    </Box>
  );
}

/** A header menu of links. */
function NavMenu({
  testId,
  label,
  items,
  onNavigate,
}: {
  testId: string;
  label: string;
  items: readonly (readonly [to: string, text: string])[];
  onNavigate?: () => void;
}) {
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Anchor component="button" type="button" data-testid={testId}>
          {label} ▾
        </Anchor>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map(([to, text]) => (
          <Menu.Item key={to} component={Link} to={to} onClick={onNavigate}>
            {text}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
