"""HTTP routes: public (draws, statistics, files) and internal (draw administration, coupons)."""
