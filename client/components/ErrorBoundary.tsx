import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Props of {@link ErrorBoundary}. */
export interface ErrorBoundaryProps {
  /** What is protected. */
  children: ReactNode;
  /** Shown instead of the children after they failed; nothing when absent. */
  fallback?: ReactNode;
  /** Told about the failure, e.g. to show a toast. */
  onError?: (error: unknown) => void;
}

/**
 * Keeps a failing part (typically a lazily loaded dialog whose chunk could not be fetched)
 * from unmounting the whole app, and the document with it.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    this.props.onError?.(error);
  }

  override render(): ReactNode {
    return this.state.failed ? (this.props.fallback ?? null) : this.props.children;
  }
}
