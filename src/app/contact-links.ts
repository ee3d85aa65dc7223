import type { ContactInfo } from '../contract/site'

/** A wa.me link from the WhatsApp number in the contact info (a full URL is kept as it is). */
export function whatsappHref(value: string | null | undefined): string | undefined {
  if (!value) return undefined
  if (/^https?:\/\//i.test(value)) return value
  const digits = value.replace(/\D/g, '')
  return digits ? `https://wa.me/${digits}` : undefined
}

export function socialLinks(info: ContactInfo | undefined) {
  return {
    facebook: info?.facebook || undefined,
    instagram: info?.instagram || undefined,
    whatsapp: whatsappHref(info?.whatsapp),
    tiktok: info?.tiktok || undefined,
  }
}
