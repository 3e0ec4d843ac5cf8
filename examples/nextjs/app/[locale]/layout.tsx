import type { Metadata } from 'next'
import { type ReactNode, use } from 'react'
import { enterLocale, runWithLocale, t } from 'unplugin-tms/runtime'
import { dirOf, LOCALES } from '../locales'
import { ClientLocale } from './client'

interface Props {
  children: ReactNode
  params: Promise<{ locale: string }>
}

// One static page per locale at build time; any other first segment is a 404.
export const dynamicParams = false

export function generateStaticParams(): { locale: string }[] {
  return LOCALES.map((locale) => ({ locale }))
}

// Metadata is made outside the component tree: it has its function to wrap.
export async function generateMetadata({ params }: Omit<Props, 'children'>): Promise<Metadata> {
  const { locale } = await params
  // `data:,` as the icon: the browser asks the server for no /favicon.ico.
  return runWithLocale(locale, () => ({
    title: t('Welcome to the Next.js store'),
    icons: { icon: 'data:,' },
  }))
}

export default function LocaleLayout({ children, params }: Props) {
  const { locale } = use(params)
  // Every t() of this layout, and of the server components it renders, in the page's locale.
  use(enterLocale(locale))
  return (
    <html lang={locale} dir={dirOf(locale)}>
      <body>
        {/* The client components below render in the same locale, on the server and while hydrating. */}
        <ClientLocale locale={locale}>{children}</ClientLocale>
        <footer id="terms">{t('Terms of sale')}</footer>
      </body>
    </html>
  )
}
