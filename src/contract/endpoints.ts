import * as v from 'valibot'
import {
  CodeCheckReplySchema,
  CodeCheckSchema,
  CodeSentReplySchema,
  EmailPayloadSchema,
  LoginAuthSchema,
  LoginSchema,
  ResetLinkSchema,
  ResetSchema,
  ResetSentReplySchema,
  TokenReplySchema,
} from './auth'
import {
  GroupListReplySchema,
  GroupReplySchema,
  PackageDetailReplySchema,
  PackagePageSchema,
  ProductDetailReplySchema,
  ProductPageSchema,
} from './catalogue'
import { MessageReplySchema } from './common'
import {
  ConsoleSignInSchema,
  OperatorListReplySchema,
  OperatorReplySchema,
  RejectTopUpSchema,
  TodayReplySchema,
  TopUpDecisionReplySchema,
  TopUpQueueReplySchema,
} from './console'
import {
  CancelOrderSchema,
  CompleteOrderSchema,
  ConsoleOrderActionReplySchema,
  ConsoleOrderPageSchema,
  ConsoleOrderReplySchema,
} from './console-orders'
import {
  AccountTypeSchema,
  AuditPageReplySchema,
  BalanceCorrectionSchema,
  CustomerActionReplySchema,
  CustomerDetailReplySchema,
  CustomerSearchReplySchema,
  DisableCustomerSchema,
} from './console-customers'
import {
  ContactSettingsFormSchema,
  PaymentSettingsFormSchema,
  SettingsReplySchema,
  SettingsSavedReplySchema,
  SiteTextsFormSchema,
} from './console-settings'
import {
  AlertsReplySchema,
  ConsolePushTokenSchema,
  UnmatchedReplySchema,
  UsdtConfirmReplySchema,
  UsdtConfirmSchema,
  UsdtListReplySchema,
} from './console-usdt'
import { CONSOLE_CATALOGUE_ENDPOINTS } from './console-catalogue'
import { NewUserSchema, SignupAuthSchema } from './sign-up'
import {
  FcmTokenPayloadSchema,
  NotificationPageSchema,
  PushConfigReplySchema,
} from './notifications'
import {
  OrderPageSchema,
  OrderReplySchema,
  OrderRequestSchema,
  PlaceOrderReplySchema,
  PlayerLookupReplySchema,
  PlayerNumberReplySchema,
  StatusBulkReplySchema,
} from './orders'
import {
  CurrencyPayloadSchema,
  CurrencyReplySchema,
  LocalePayloadSchema,
  ProfileReplySchema,
} from './profile'
import {
  V2AddReplySchema,
  V2BalanceReplySchema,
  V2CancelReplySchema,
  V2ErrorSchema,
  V2MultiStatusReplySchema,
  V2OrderStatusSchema,
  V2RefillManyReplySchema,
  V2RefillStatusManyReplySchema,
  V2RequestSchema,
  V2ServicesReplySchema,
} from './reseller'
import {
  AboutReplySchema,
  ContactReplySchema,
  MessagePayloadSchema,
  SliderReplySchema,
  WebsiteInfoReplySchema,
} from './site'
import { ApiTokenPayloadSchema, ApiTokenReplySchema } from './token'
import type { Endpoint } from './endpoint'
import {
  ChargeReplySchema,
  ChargingProcessPageSchema,
  ChargingProcessReplySchema,
  OpenUsdtPaymentReplySchema,
  PaymentInfoReplySchema,
  PaymentLogPageSchema,
  PaymentLogReplySchema,
  PromoChargeSchema,
  ReceiptChargeSchema,
  UsdtPaymentReplySchema,
  UsdtRequestSchema,
} from './wallet'

/*
 * Every call of the API, once (docs/api.md): its method, its path under /api/ as the server
 * routes it (`:id` a path parameter), who may make it, the body it reads and the reply it
 * sends. The server binds its handlers to these entries and reads bodies with these schemas;
 * the storefront's client is typed from them; endpoints.test.ts holds the server's routes and
 * docs/api.md to this table. A path that does two things by its query (`signup?validate=1`,
 * `signup?auth=1`) has one entry for each, with `variant` the query that picks it.
 */

export type { Endpoint, EndpointAuth } from './endpoint'

/** The reseller API's replies: each action's, or its `{"error": ...}`. */
const V2ReplySchema = v.union([
  V2ServicesReplySchema,
  V2AddReplySchema,
  V2OrderStatusSchema,
  V2MultiStatusReplySchema,
  V2BalanceReplySchema,
  V2RefillManyReplySchema,
  V2CancelReplySchema,
  V2RefillStatusManyReplySchema,
  V2ErrorSchema,
])

/** The outbox of the development server: whatever it holds, as JSON. */
const DevReplySchema = v.unknown()

export const ENDPOINTS = {
  // ---- site content
  websiteInfo: {
    method: 'GET',
    path: '/website/info',
    auth: 'public',
    reply: WebsiteInfoReplySchema,
  },
  slider: { method: 'GET', path: '/slider/images', auth: 'public', reply: SliderReplySchema },
  about: { method: 'GET', path: '/about-us/info', auth: 'public', reply: AboutReplySchema },
  contact: { method: 'GET', path: '/contact-us/info', auth: 'public', reply: ContactReplySchema },
  sendMessage: {
    method: 'POST',
    path: '/messages',
    auth: 'public',
    body: MessagePayloadSchema,
    reply: MessageReplySchema,
  },
  // ---- accounts and codes
  signupValidate: {
    method: 'POST',
    path: '/signup',
    variant: { validate: '1' },
    auth: 'public',
    body: NewUserSchema,
    reply: CodeSentReplySchema,
  },
  signup: {
    method: 'POST',
    path: '/signup',
    variant: { auth: '1' },
    auth: 'public',
    body: SignupAuthSchema,
    reply: TokenReplySchema,
  },
  loginCheck: {
    method: 'POST',
    path: '/login',
    variant: { check: '1' },
    auth: 'public',
    body: LoginSchema,
    reply: CodeSentReplySchema,
  },
  login: {
    method: 'POST',
    path: '/login',
    variant: { auth: '1' },
    auth: 'public',
    body: LoginAuthSchema,
    reply: TokenReplySchema,
  },
  logout: { method: 'POST', path: '/logout', auth: 'user', reply: MessageReplySchema },
  sendResetCode: {
    method: 'POST',
    path: '/send/verification-code',
    auth: 'public',
    body: EmailPayloadSchema,
    reply: ResetSentReplySchema,
  },
  checkResetCode: {
    method: 'POST',
    path: '/check/verification-code',
    auth: 'public',
    body: CodeCheckSchema,
    reply: CodeCheckReplySchema,
  },
  resetPassword: {
    method: 'POST',
    path: '/reset-password',
    auth: 'public',
    body: ResetSchema,
    reply: MessageReplySchema,
  },
  resetPasswordByLink: {
    method: 'POST',
    path: '/reset-password-link',
    auth: 'public',
    body: ResetLinkSchema,
    reply: MessageReplySchema,
  },
  // ---- profile
  profile: { method: 'GET', path: '/profile', auth: 'user-or-token', reply: ProfileReplySchema },
  changeLocale: {
    method: 'POST',
    path: '/change/locale',
    auth: 'user',
    body: LocalePayloadSchema,
    reply: MessageReplySchema,
  },
  changeCurrency: {
    method: 'POST',
    path: '/change-currency',
    auth: 'user',
    body: CurrencyPayloadSchema,
    reply: CurrencyReplySchema,
  },
  saveApiToken: {
    method: 'POST',
    path: '/user/token',
    auth: 'user',
    body: ApiTokenPayloadSchema,
    reply: ApiTokenReplySchema,
  },
  // ---- catalogue
  products: { method: 'GET', path: '/products', auth: 'public', reply: ProductPageSchema },
  groups: { method: 'GET', path: '/products/groups', auth: 'public', reply: GroupListReplySchema },
  product: {
    method: 'GET',
    path: '/products/:id',
    auth: 'public',
    reply: ProductDetailReplySchema,
  },
  productPackages: {
    method: 'GET',
    path: '/products/:id/packages',
    auth: 'public',
    reply: PackagePageSchema,
  },
  package: {
    method: 'GET',
    path: '/products/packages/:id',
    auth: 'public',
    reply: PackageDetailReplySchema,
  },
  group: { method: 'GET', path: '/products/by-group/:id', auth: 'public', reply: GroupReplySchema },
  // ---- orders and player lookups
  playerById: {
    method: 'GET',
    path: '/th-p-apis/:id',
    auth: 'optional',
    reply: PlayerLookupReplySchema,
  },
  playerByName: {
    method: 'GET',
    path: '/automated/get/player/name/:number/:api',
    auth: 'optional',
    reply: PlayerLookupReplySchema,
  },
  playerNumber: {
    method: 'GET',
    path: '/player_number/info',
    auth: 'user-or-token',
    reply: PlayerNumberReplySchema,
  },
  placeOrder: {
    method: 'POST',
    path: '/automated/get/packages',
    auth: 'user-or-token',
    body: OrderRequestSchema,
    reply: PlaceOrderReplySchema,
  },
  orders: { method: 'GET', path: '/orders', auth: 'user-or-token', reply: OrderPageSchema },
  order: { method: 'GET', path: '/orders/:id', auth: 'user-or-token', reply: OrderReplySchema },
  refreshOrders: {
    method: 'GET',
    path: '/automated/get/status/bulk',
    auth: 'user-or-token',
    reply: StatusBulkReplySchema,
  },
  // ---- wallet and top-ups
  paymentInfo: {
    method: 'GET',
    path: '/payments/info',
    auth: 'public',
    reply: PaymentInfoReplySchema,
  },
  paymentLogs: {
    method: 'GET',
    path: '/payment-logs',
    auth: 'user',
    reply: PaymentLogPageSchema,
  },
  paymentLog: {
    method: 'GET',
    path: '/payment-logs/:id',
    auth: 'user',
    reply: PaymentLogReplySchema,
  },
  charges: {
    method: 'GET',
    path: '/charging-processes',
    auth: 'user',
    reply: ChargingProcessPageSchema,
  },
  charge: {
    method: 'GET',
    path: '/charging-processes/:id',
    auth: 'user',
    reply: ChargingProcessReplySchema,
  },
  receipt: { method: 'GET', path: '/charging-processes/:id/receipt', auth: 'user', reply: 'file' },
  receiptCharge: {
    method: 'POST',
    path: '/charging-processes',
    auth: 'user',
    body: ReceiptChargeSchema,
    reply: ChargeReplySchema,
  },
  promoCharge: {
    method: 'POST',
    path: '/charging-processes',
    variant: { name: 'PROMO_CODE' },
    auth: 'user',
    body: PromoChargeSchema,
    reply: ChargeReplySchema,
  },
  requestUsdt: {
    method: 'POST',
    path: '/wallet/request-payment',
    auth: 'user',
    body: UsdtRequestSchema,
    reply: UsdtPaymentReplySchema,
  },
  usdtPayment: {
    method: 'GET',
    path: '/wallet/check-payment/:id',
    auth: 'user',
    reply: UsdtPaymentReplySchema,
  },
  openUsdtPayment: {
    method: 'GET',
    path: '/wallet/open-payment',
    auth: 'user',
    reply: OpenUsdtPaymentReplySchema,
  },
  // ---- reseller API (v2): one call, `action` in its form says what it does
  reseller: {
    method: 'POST',
    path: '/v2',
    auth: 'api-key',
    body: V2RequestSchema,
    reply: V2ReplySchema,
  },
  /** Refused in the v2 shape: a key does not belong in an address. */
  resellerGet: { method: 'GET', path: '/v2', auth: 'public', reply: V2ErrorSchema },
  // ---- notifications
  notifications: {
    method: 'GET',
    path: '/notifications',
    auth: 'user',
    reply: NotificationPageSchema,
  },
  deleteNotification: {
    method: 'DELETE',
    path: '/notifications/:id',
    auth: 'user',
    reply: MessageReplySchema,
  },
  pushConfig: { method: 'GET', path: '/push/config', auth: 'public', reply: PushConfigReplySchema },
  savePushToken: {
    method: 'POST',
    path: '/user/fcm-token',
    auth: 'user',
    body: FcmTokenPayloadSchema,
    reply: MessageReplySchema,
  },
  // ---- the operator console: its own cookie session; customers' and API tokens get 403
  consoleSignIn: {
    method: 'POST',
    path: '/admin/sign-in',
    auth: 'public',
    body: ConsoleSignInSchema,
    reply: OperatorReplySchema,
  },
  consoleSignOut: {
    method: 'POST',
    path: '/admin/sign-out',
    auth: 'operator',
    reply: MessageReplySchema,
  },
  consoleSignOutEverywhere: {
    method: 'POST',
    path: '/admin/sign-out-everywhere',
    auth: 'operator',
    reply: MessageReplySchema,
  },
  consoleMe: { method: 'GET', path: '/admin/me', auth: 'operator', reply: OperatorReplySchema },
  consoleOperators: {
    method: 'GET',
    path: '/admin/operators',
    auth: 'owner',
    reply: OperatorListReplySchema,
  },
  consoleToday: { method: 'GET', path: '/admin/today', auth: 'operator', reply: TodayReplySchema },
  consoleTopUps: {
    method: 'GET',
    path: '/admin/top-ups',
    auth: 'operator',
    reply: TopUpQueueReplySchema,
  },
  consoleReceipt: {
    method: 'GET',
    path: '/admin/top-ups/:id/receipt',
    auth: 'operator',
    reply: 'file',
  },
  consoleApprove: {
    method: 'POST',
    path: '/admin/top-ups/:id/approve',
    auth: 'operator',
    reply: TopUpDecisionReplySchema,
  },
  consoleReject: {
    method: 'POST',
    path: '/admin/top-ups/:id/reject',
    auth: 'operator',
    body: RejectTopUpSchema,
    reply: TopUpDecisionReplySchema,
  },
  consoleOrders: {
    method: 'GET',
    path: '/admin/orders',
    auth: 'operator',
    reply: ConsoleOrderPageSchema,
  },
  consoleOrder: {
    method: 'GET',
    path: '/admin/orders/:id',
    auth: 'operator',
    reply: ConsoleOrderReplySchema,
  },
  consoleCompleteOrder: {
    method: 'POST',
    path: '/admin/orders/:id/complete',
    auth: 'operator',
    body: CompleteOrderSchema,
    reply: ConsoleOrderActionReplySchema,
  },
  consoleCancelOrder: {
    method: 'POST',
    path: '/admin/orders/:id/cancel',
    auth: 'operator',
    body: CancelOrderSchema,
    reply: ConsoleOrderActionReplySchema,
  },
  consoleRetryOrder: {
    method: 'POST',
    path: '/admin/orders/:id/retry',
    auth: 'operator',
    reply: ConsoleOrderActionReplySchema,
  },
  // ---- the console's customers and audit log (any console role)
  consoleCustomers: {
    method: 'GET',
    path: '/admin/customers',
    auth: 'operator',
    reply: CustomerSearchReplySchema,
  },
  consoleCustomer: {
    method: 'GET',
    path: '/admin/customers/:id',
    auth: 'operator',
    reply: CustomerDetailReplySchema,
  },
  consoleCustomerLedger: {
    method: 'GET',
    path: '/admin/customers/:id/ledger',
    auth: 'operator',
    reply: PaymentLogPageSchema,
  },
  consoleCorrectBalance: {
    method: 'POST',
    path: '/admin/customers/:id/balance',
    auth: 'operator',
    body: BalanceCorrectionSchema,
    reply: CustomerActionReplySchema,
  },
  consoleDisableCustomer: {
    method: 'POST',
    path: '/admin/customers/:id/disable',
    auth: 'operator',
    body: DisableCustomerSchema,
    reply: CustomerActionReplySchema,
  },
  consoleEnableCustomer: {
    method: 'POST',
    path: '/admin/customers/:id/enable',
    auth: 'operator',
    reply: CustomerActionReplySchema,
  },
  consoleRevokeSessions: {
    method: 'POST',
    path: '/admin/customers/:id/revoke-sessions',
    auth: 'operator',
    reply: CustomerActionReplySchema,
  },
  consoleSetAccountType: {
    method: 'POST',
    path: '/admin/customers/:id/type',
    auth: 'operator',
    body: AccountTypeSchema,
    reply: CustomerActionReplySchema,
  },
  consoleAudit: {
    method: 'GET',
    path: '/admin/audit',
    auth: 'operator',
    reply: AuditPageReplySchema,
  },
  consoleSettings: {
    method: 'GET',
    path: '/admin/settings',
    auth: 'owner',
    reply: SettingsReplySchema,
  },
  consoleSavePayments: {
    method: 'POST',
    path: '/admin/settings/payments',
    auth: 'owner',
    body: PaymentSettingsFormSchema,
    reply: SettingsSavedReplySchema,
  },
  consoleSaveContact: {
    method: 'POST',
    path: '/admin/settings/contact',
    auth: 'owner',
    body: ContactSettingsFormSchema,
    reply: SettingsSavedReplySchema,
  },
  consoleSaveTexts: {
    method: 'POST',
    path: '/admin/settings/texts',
    auth: 'owner',
    body: SiteTextsFormSchema,
    reply: SettingsSavedReplySchema,
  },
  consoleUsdt: { method: 'GET', path: '/admin/usdt', auth: 'operator', reply: UsdtListReplySchema },
  consoleUnmatched: {
    method: 'GET',
    path: '/admin/usdt/unmatched',
    auth: 'operator',
    reply: UnmatchedReplySchema,
  },
  consoleConfirmUsdt: {
    method: 'POST',
    path: '/admin/usdt/:id/confirm',
    auth: 'operator',
    body: UsdtConfirmSchema,
    reply: UsdtConfirmReplySchema,
  },
  consoleAlerts: {
    method: 'GET',
    path: '/admin/alerts',
    auth: 'operator',
    reply: AlertsReplySchema,
  },
  consolePushToken: {
    method: 'POST',
    path: '/admin/push-token',
    auth: 'operator',
    body: ConsolePushTokenSchema,
    reply: MessageReplySchema,
  },
  ...CONSOLE_CATALOGUE_ENDPOINTS,
  // ---- development only
  devOutbox: { method: 'GET', path: '/dev/outbox', auth: 'dev', reply: DevReplySchema },
  devPush: { method: 'GET', path: '/dev/push', auth: 'dev', reply: DevReplySchema },
} as const satisfies Record<string, Endpoint>

export type Endpoints = typeof ENDPOINTS
export type EndpointName = keyof Endpoints

/** What a call of `name` answers on success, as the server writes it. */
export type Reply<N extends EndpointName> = Endpoints[N]['reply'] extends v.GenericSchema
  ? v.InferInput<Endpoints[N]['reply']>
  : never
