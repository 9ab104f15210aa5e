import { ActionIcon, Anchor, Box, Burger, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
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
  return vertical ? <Stack gap="xs">{children}</Stack> : <Group gap="md">{children}</Group>;
}

function NavLinks({ onNavigate, vertical }: { onNavigate: () => void; vertical: boolean }) {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const logout = useLogout();
  if (!isLoggedIn(user)) {
    return (
      <Wrap vertical={vertical}>
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
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Anchor component="button" type="button" data-testid="nav-wallet">
            {t('nav.wallet')} ▾
          </Anchor>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to="/balance" onClick={onNavigate}>
            {t('nav.balance')}
          </Menu.Item>
          <Menu.Item component={Link} to="/deposit_withdraw" onClick={onNavigate}>
            {t('nav.depositWithdraw')}
          </Menu.Item>
          <Menu.Item component={Link} to="/swap" onClick={onNavigate}>
            {t('nav.swap')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Anchor component="button" type="button" data-testid="nav-history">
            {t('nav.history')} ▾
          </Anchor>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to="/history/account" onClick={onNavigate}>
            {t('nav.transactionHistory')}
          </Menu.Item>
          <Menu.Item component={Link} to="/history/orders" onClick={onNavigate}>
            {t('nav.orderHistory')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Anchor component={Link} to="/contact" onClick={onNavigate}>
        {t('nav.contact')}
      </Anchor>
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

/** Site header: logo, navigation for visitors or users, theme switch, and a mobile menu toggle. */
export function Header() {
  const { t } = useTranslation();
  const [open, { toggle, close }] = useDisclosure(false);
  return (
    <Box
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
