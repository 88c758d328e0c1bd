# Motable server image: one stateless `motable serve` process.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /srv/motable

COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY engines ./engines
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates

# Editable: the server finds static/ and templates/ beside app/, which a wheel install would leave behind.
RUN pip install -e . \
    && useradd --create-home --uid 10001 motable \
    && mkdir -p /data && chown motable /data

USER motable
# The embedded default keeps its SQLite file on a volume; compose overrides DATABASE_URL.
ENV DATABASE_URL=sqlite:////data/motable.db
VOLUME ["/data"]
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=3)"

CMD ["motable", "serve", "--host", "0.0.0.0", "--port", "8000"]
