package dev.gym4j.client;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An answer body read into an array only up to a bound: past it the read stops, the rest is never received,
 * and the call fails with {@link TooLarge}. An upstream is untrusted, so what its answer makes us allocate is
 * ours to bound, whatever its framing (a chunked answer announces no length).
 */
final class BoundedAnswer implements HttpResponse.BodySubscriber<byte[]> {
  private final HttpResponse.BodySubscriber<byte[]> whole = HttpResponse.BodySubscribers.ofByteArray();
  private final long max;
  private long seen;
  private boolean over;
  private Flow.Subscription subscription;

  private BoundedAnswer(long max) {
    this.max = max;
  }

  /** A body handler reading at most {@code max} bytes of each answer. */
  static HttpResponse.BodyHandler<byte[]> handler(long max) {
    return info -> new BoundedAnswer(max);
  }

  /** Whether a failed call failed because its answer was over the bound (the client may wrap the cause). */
  static boolean tooLarge(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof TooLarge) {
        return true;
      }
    }
    return false;
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return whole.getBody();
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    whole.onSubscribe(subscription);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (over) {
      return;
    }
    for (ByteBuffer item : items) {
      seen += item.remaining();
    }
    if (seen > max) {
      over = true;
      subscription.cancel();
      whole.onError(new TooLarge(max));
      return;
    }
    whole.onNext(items);
  }

  @Override
  public void onError(Throwable throwable) {
    if (!over) {
      whole.onError(throwable);
    }
  }

  @Override
  public void onComplete() {
    if (!over) {
      whole.onComplete();
    }
  }

  /** An answer longer than the bound. */
  static final class TooLarge extends IOException {
    TooLarge(long max) {
      super("the answer is larger than " + max + " bytes", null);
    }
  }
}
