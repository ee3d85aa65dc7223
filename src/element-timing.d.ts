import 'react'

declare module 'react' {
  // The type parameter is React's own: merged declarations must name it alike.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ImgHTMLAttributes<T> {
    /** Element Timing: the browser reports when the picture is painted, under this name. */
    elementtiming?: string
  }
}
