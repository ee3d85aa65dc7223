import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { openDatabase, operator, signedInCustomer, uniqueDigits } from './support'

test('a stocked package: the order shows its code as soon as it is paid', async ({
  page,
  request,
}) => {
  const db = openDatabase()
  const pkg = db
    .prepare(`select id from packages where product_id = 33 and name_en = 'Razer Gold $5'`)
    .get() as { id: number }
  db.close()
  const code = `RZR5-${uniqueDigits()}-E2E`
  const file = join(process.env.E2E_DATA_DIR!, `codes-${code}.csv`)
  writeFileSync(file, `${code},2099-12-31\n`)
  expect(operator('stock:import', String(pkg.id), file)).toMatchObject({ imported: 1 })

  await signedInCustomer(page, request, { balance: '100' })
  await page.goto(`/#/products/products-4/packages/${pkg.id}`)
  await page.getByRole('button', { name: 'Buy', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click()
  await expect(page).toHaveURL(/#\/Orders/)
  const row = page.getByRole('row').filter({ hasText: 'Razer Gold $5' })
  await expect(row).toContainText('Completed')
  await row.getByRole('link', { name: 'Razer Gold $5' }).click()
  await expect(page.getByText(code)).toBeVisible()
  await expect(page.getByRole('button', { name: `Copy code ${code}` })).toBeVisible()
})
