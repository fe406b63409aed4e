import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';

/** An account made up for one test: nobody else signs in with it. */
export interface TestAccount {
  name: string;
  email: string;
  password: string;
}

/** A new account's details. */
export function newAccount(name = 'Wren Writer'): TestAccount {
  return {
    name,
    email: `wren.${randomBytes(5).toString('hex')}@example.com`,
    password: 'a long enough password',
  };
}

/**
 * On the embedded provider's sign-in page (where a signed-out visit lands), creates an account
 * and waits until the app has taken the browser back.
 */
export async function signUp(page: Page, account = newAccount()): Promise<TestAccount> {
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill(account.name);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/idp/'));
  return account;
}
