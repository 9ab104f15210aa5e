import Bowser from 'bowser';

/** What a user agent says about the device behind a session, as the Devices list and the security log show it. */
export interface DeviceInfo {
  /** Browser family, e.g. `Chrome`, `Firefox`; `Unknown` when the agent names none (a script, an empty header). */
  browser: string;
  /** Operating system family, e.g. `Windows`, `macOS`, `Android`; `Unknown` when the agent names none. */
  os: string;
  /**
   * The device key compared at login: `browser/os`, families only. Versions are left out on purpose: a browser
   * updates itself every few weeks, and that is no new device.
   */
  key: string;
}

const UNKNOWN = 'Unknown';
/** Longer agents are cut before parsing: real ones stay well under this, and parsing cost must stay bounded. */
const MAX_AGENT = 512;

/** Parses a user agent with bowser (MIT) into browser and OS families. */
export function deviceOf(userAgent: string | null | undefined): DeviceInfo {
  const agent = (userAgent ?? '').slice(0, MAX_AGENT);
  const parsed = agent ? Bowser.parse(agent) : undefined;
  const browser = parsed?.browser.name || UNKNOWN;
  const os = parsed?.os.name || UNKNOWN;
  return { browser, os, key: `${browser}/${os}` };
}
