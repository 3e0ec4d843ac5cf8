import { mount } from 'svelte'
import { getLocale, setLocale } from 'unplugin-tms/runtime'
import App from './App.svelte'

// Mounted once the first locale is loaded: a production build ships even the source locale's texts
// as a catalog.
setLocale(getLocale()).then(() => mount(App, { target: document.getElementById('app')! }))
