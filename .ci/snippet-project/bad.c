int good(void);
int bad(void) { return good() + 1; }
