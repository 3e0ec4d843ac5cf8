import type { EmulatorSeed } from './types'

/**
 * The emulator's state when started without `--seed`: one user, one account, one project
 * (en-US -> fr-FR, de-DE, ja-JP) and a small translation memory for the auto-translator.
 */
const ORDERED = 'Ordered on {when, date, long} at {when, time, short}'

export const DEMO_SEED: EmulatorSeed = {
  users: [{ userIdentifier: 'demo-user', userSecret: 'demo-secret' }],
  accounts: [
    {
      accountUid: 'demo-account',
      projects: [
        { projectId: 'demo-project', sourceLocaleId: 'en-US', targetLocaleIds: ['fr-FR', 'de-DE', 'ja-JP'] },
      ],
    },
  ],
  translationMemory: [
    { localeId: 'fr-FR', source: 'Hello {0}!', target: 'Bonjour {0} !' },
    { localeId: 'de-DE', source: 'Hello {0}!', target: 'Hallo {0}!' },
    { localeId: 'ja-JP', source: 'Hello {0}!', target: 'こんにちは、{0}！' },
    { localeId: 'fr-FR', source: 'Save', target: 'Enregistrer' },
    { localeId: 'de-DE', source: 'Save', target: 'Speichern' },
    { localeId: 'ja-JP', source: 'Save', target: '保存' },
    { localeId: 'fr-FR', source: 'Cancel', target: 'Annuler' },
    { localeId: 'de-DE', source: 'Cancel', target: 'Abbrechen' },
    { localeId: 'ja-JP', source: 'Cancel', target: 'キャンセル' },
    { localeId: 'fr-FR', source: 'You have {0} new messages', target: 'Vous avez {0} nouveaux messages' },
    { localeId: 'de-DE', source: 'You have {0} new messages', target: 'Sie haben {0} neue Nachrichten' },
    { localeId: 'ja-JP', source: 'You have {0} new messages', target: '新しいメッセージが{0}件あります' },
    // The strings of examples/vite-react, so `npm run demo` ends fully translated.
    {
      localeId: 'fr-FR',
      source: 'Welcome to the demo store',
      target: 'Bienvenue dans la boutique de démonstration',
    },
    { localeId: 'de-DE', source: 'Welcome to the demo store', target: 'Willkommen im Demo-Shop' },
    { localeId: 'ja-JP', source: 'Welcome to the demo store', target: 'デモストアへようこそ' },
    { localeId: 'fr-FR', source: 'Signed in as {0}', target: 'Connecté en tant que {0}' },
    { localeId: 'de-DE', source: 'Signed in as {0}', target: 'Angemeldet als {0}' },
    { localeId: 'ja-JP', source: 'Signed in as {0}', target: '{0} としてサインイン中' },
    { localeId: 'fr-FR', source: 'Your cart', target: 'Votre panier' },
    { localeId: 'de-DE', source: 'Your cart', target: 'Ihr Warenkorb' },
    { localeId: 'ja-JP', source: 'Your cart', target: 'カート' },
    { localeId: 'fr-FR', source: 'Your cart is empty', target: 'Votre panier est vide' },
    { localeId: 'de-DE', source: 'Your cart is empty', target: 'Ihr Warenkorb ist leer' },
    { localeId: 'ja-JP', source: 'Your cart is empty', target: 'カートは空です' },
    {
      localeId: 'fr-FR',
      source: 'You have {0} items in your cart',
      target: 'Vous avez {0} articles dans votre panier',
    },
    {
      localeId: 'de-DE',
      source: 'You have {0} items in your cart',
      target: 'Sie haben {0} Artikel im Warenkorb',
    },
    { localeId: 'ja-JP', source: 'You have {0} items in your cart', target: 'カートに{0}個の商品があります' },
    { localeId: 'fr-FR', source: 'Checkout', target: 'Payer' },
    { localeId: 'de-DE', source: 'Checkout', target: 'Zur Kasse' },
    { localeId: 'ja-JP', source: 'Checkout', target: '購入手続き' },
    { localeId: 'fr-FR', source: 'Language', target: 'Langue' },
    { localeId: 'de-DE', source: 'Language', target: 'Sprache' },
    { localeId: 'ja-JP', source: 'Language', target: '言語' },
    // examples/vite-react's <T>, rich text, plural and lazy route.
    {
      localeId: 'fr-FR',
      source: 'Read our {0}help pages{1} before you check out.',
      target: 'Lisez nos {0}pages d’aide{1} avant de payer.',
    },
    {
      localeId: 'de-DE',
      source: 'Read our {0}help pages{1} before you check out.',
      target: 'Lesen Sie unsere {0}Hilfeseiten{1}, bevor Sie bezahlen.',
    },
    {
      localeId: 'ja-JP',
      source: 'Read our {0}help pages{1} before you check out.',
      target: 'お支払いの前に{0}ヘルプページ{1}をお読みください。',
    },
    {
      localeId: 'fr-FR',
      source: 'Questions? {0}Write to us{1}.',
      target: 'Des questions ? {0}Écrivez-nous{1}.',
    },
    {
      localeId: 'de-DE',
      source: 'Questions? {0}Write to us{1}.',
      target: 'Fragen? {0}Schreiben Sie uns{1}.',
    },
    { localeId: 'ja-JP', source: 'Questions? {0}Write to us{1}.', target: 'ご質問は{0}こちらまで{1}。' },
    {
      localeId: 'fr-FR',
      source: '{count, plural, one {# item in your cart} other {# items in your cart}}',
      target: '{count, plural, one {# article dans votre panier} other {# articles dans votre panier}}',
    },
    {
      localeId: 'de-DE',
      source: '{count, plural, one {# item in your cart} other {# items in your cart}}',
      target: '{count, plural, one {# Artikel im Warenkorb} other {# Artikel im Warenkorb}}',
    },
    {
      localeId: 'ja-JP',
      source: '{count, plural, one {# item in your cart} other {# items in your cart}}',
      target: '{count, plural, other {カートに#個の商品があります}}',
    },
    { localeId: 'fr-FR', source: 'Loading…', target: 'Chargement…' },
    { localeId: 'de-DE', source: 'Loading…', target: 'Wird geladen…' },
    { localeId: 'ja-JP', source: 'Loading…', target: '読み込み中…' },
    { localeId: 'fr-FR', source: 'Help', target: 'Aide' },
    { localeId: 'de-DE', source: 'Help', target: 'Hilfe' },
    { localeId: 'ja-JP', source: 'Help', target: 'ヘルプ' },
    {
      localeId: 'fr-FR',
      source: 'Orders ship within {0}two days{1}. {2}Back to the store{3}',
      target: 'Les commandes partent sous {0}deux jours{1}. {2}Retour à la boutique{3}',
    },
    {
      localeId: 'de-DE',
      source: 'Orders ship within {0}two days{1}. {2}Back to the store{3}',
      target: 'Bestellungen werden innerhalb von {0}zwei Tagen{1} versandt. {2}Zurück zum Shop{3}',
    },
    {
      localeId: 'ja-JP',
      source: 'Orders ship within {0}two days{1}. {2}Back to the store{3}',
      target: 'ご注文は{0}2日以内{1}に発送されます。{2}ストアに戻る{3}',
    },
    { localeId: 'fr-FR', source: 'This text is never bundled', target: 'Ce texte n’est jamais inclus' },
    { localeId: 'de-DE', source: 'This text is never bundled', target: 'Dieser Text wird nie gebündelt' },
    { localeId: 'ja-JP', source: 'This text is never bundled', target: 'このテキストはバンドルされません' },
    // The date of examples/sveltekit and examples/nuxt: ICU arguments with a style stay whole in the text.
    { localeId: 'fr-FR', source: ORDERED, target: 'Commandé le {when, date, long} à {when, time, short}' },
    { localeId: 'de-DE', source: ORDERED, target: 'Bestellt am {when, date, long} um {when, time, short}' },
    { localeId: 'ja-JP', source: ORDERED, target: '{when, date, long} {when, time, short}に注文済み' },
    // The other strings of examples/vite-svelte.
    { localeId: 'fr-FR', source: 'Welcome to the Svelte store', target: 'Bienvenue dans la boutique Svelte' },
    { localeId: 'de-DE', source: 'Welcome to the Svelte store', target: 'Willkommen im Svelte-Shop' },
    { localeId: 'ja-JP', source: 'Welcome to the Svelte store', target: 'Svelte ストアへようこそ' },
    { localeId: 'fr-FR', source: 'Open your cart', target: 'Ouvrir votre panier' },
    { localeId: 'de-DE', source: 'Open your cart', target: 'Warenkorb öffnen' },
    { localeId: 'ja-JP', source: 'Open your cart', target: 'カートを開く' },
    { localeId: 'fr-FR', source: 'Terms of sale', target: 'Conditions de vente' },
    { localeId: 'de-DE', source: 'Terms of sale', target: 'Verkaufsbedingungen' },
    { localeId: 'ja-JP', source: 'Terms of sale', target: '販売条件' },
    {
      localeId: 'fr-FR',
      source: 'Read the {0}terms of {1}sale{2}{3} before you order.',
      target: 'Lisez les {0}conditions de {1}vente{2}{3} avant de commander.',
    },
    {
      localeId: 'de-DE',
      source: 'Read the {0}terms of {1}sale{2}{3} before you order.',
      target: 'Lesen Sie die {0}Bedingungen für den {1}Verkauf{2}{3}, bevor Sie bestellen.',
    },
    {
      localeId: 'ja-JP',
      source: 'Read the {0}terms of {1}sale{2}{3} before you order.',
      target: 'ご注文の前に{0}{1}販売{2}条件{3}をお読みください。',
    },
    // The other strings of examples/vite-vue (its plural is the one above).
    { localeId: 'fr-FR', source: 'Welcome to the Vue store', target: 'Bienvenue dans la boutique Vue' },
    { localeId: 'de-DE', source: 'Welcome to the Vue store', target: 'Willkommen im Vue-Shop' },
    { localeId: 'ja-JP', source: 'Welcome to the Vue store', target: 'Vue ストアへようこそ' },
    {
      localeId: 'fr-FR',
      source: 'Adds one more item to your cart',
      target: 'Ajoute un article à votre panier',
    },
    {
      localeId: 'de-DE',
      source: 'Adds one more item to your cart',
      target: 'Legt einen weiteren Artikel in den Warenkorb',
    },
    { localeId: 'ja-JP', source: 'Adds one more item to your cart', target: 'カートに商品を1つ追加します' },
    { localeId: 'fr-FR', source: 'Add an item', target: 'Ajouter un article' },
    { localeId: 'de-DE', source: 'Add an item', target: 'Artikel hinzufügen' },
    { localeId: 'ja-JP', source: 'Add an item', target: '商品を追加' },
    {
      localeId: 'fr-FR',
      source: 'Read the {0}terms of sale{1} before you buy.',
      target: 'Lisez les {0}conditions de vente{1} avant d’acheter.',
    },
    {
      localeId: 'de-DE',
      source: 'Read the {0}terms of sale{1} before you buy.',
      target: 'Lesen Sie vor dem Kauf die {0}Verkaufsbedingungen{1}.',
    },
    {
      localeId: 'ja-JP',
      source: 'Read the {0}terms of sale{1} before you buy.',
      target: '購入前に{0}販売条件{1}をお読みください。',
    },
    { localeId: 'fr-FR', source: 'Show delivery details', target: 'Afficher les détails de livraison' },
    { localeId: 'de-DE', source: 'Show delivery details', target: 'Lieferdetails anzeigen' },
    { localeId: 'ja-JP', source: 'Show delivery details', target: '配送の詳細を表示' },
    { localeId: 'fr-FR', source: 'Delivery and returns', target: 'Livraison et retours' },
    { localeId: 'de-DE', source: 'Delivery and returns', target: 'Lieferung und Rückgabe' },
    { localeId: 'ja-JP', source: 'Delivery and returns', target: '配送と返品' },
    { localeId: 'fr-FR', source: 'Free returns within {0} days', target: 'Retours gratuits sous {0} jours' },
    {
      localeId: 'de-DE',
      source: 'Free returns within {0} days',
      target: 'Kostenlose Rückgabe innerhalb von {0} Tagen',
    },
    { localeId: 'ja-JP', source: 'Free returns within {0} days', target: '{0}日以内の返品は無料' },
    // examples/nextjs: its own title, and a date.
    {
      localeId: 'fr-FR',
      source: 'Welcome to the Next.js store',
      target: 'Bienvenue dans la boutique Next.js',
    },
    { localeId: 'de-DE', source: 'Welcome to the Next.js store', target: 'Willkommen im Next.js-Shop' },
    { localeId: 'ja-JP', source: 'Welcome to the Next.js store', target: 'Next.js ストアへようこそ' },
    // A date argument is not a placeholder for the service: the translator keeps it as written.
    {
      localeId: 'fr-FR',
      source: 'Order placed on {date, date, long}',
      target: 'Commande passée le {date, date, long}',
    },
    {
      localeId: 'de-DE',
      source: 'Order placed on {date, date, long}',
      target: 'Bestellung vom {date, date, long}',
    },
    {
      localeId: 'ja-JP',
      source: 'Order placed on {date, date, long}',
      target: '{date, date, long}に注文しました',
    },
  ],
}
